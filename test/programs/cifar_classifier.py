"""Train the small LeNet-style CNN of the classifier tutorial on synthetic 3x32x32 images.

Follows PyTorch's "Neural Networks" and "Training a Classifier" tutorials: conv, max_pool2d,
linear layers, CrossEntropyLoss, SGD with momentum, a DataLoader over a TensorDataset, then
test accuracy, per-class accuracy and a state_dict save/load round trip (through io.BytesIO).
Guide: docs/source/internals/programs/index.rst.
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')

# Synthetic "CIFAR": each class is a fixed random pattern in [-1, 1] (the range that
# transforms.Normalize((0.5,)*3, (0.5,)*3) leaves), an image is its class's pattern plus noise.
templates = torch.rand(10, 3, 32, 32) * 2 - 1


def make_images(n):
    labels = torch.randint(0, 10, (n,))
    images = templates[labels] + 0.5 * torch.randn(n, 3, 32, 32)
    return images, labels


train_images, train_labels = make_images(192)
test_images, test_labels = make_images(64)
trainloader = DataLoader(TensorDataset(train_images, train_labels), batch_size=8, shuffle=True)
testloader = DataLoader(TensorDataset(test_images, test_labels), batch_size=8, shuffle=False)

print("train batches:", len(trainloader), "test batches:", len(testloader))
print("first labels:", ' '.join(f'{classes[train_labels[j]]:5s}' for j in range(4)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)  # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)
params = list(net.parameters())
print("parameter tensors:", len(params), "conv1 weight:", tuple(params[0].size()))
print("parameters:", sum(p.numel() for p in net.parameters()))

criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.03, momentum=0.9)

for epoch in range(2):
    net.train()
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data

        optimizer.zero_grad()

        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()

        running_loss += loss.item()
        if i % 8 == 7:
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 8:.5f}')
            running_loss = 0.0

print('Finished Training')

buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
buffer.seek(0)
net = Net()
net.load_state_dict(torch.load(buffer, weights_only=True))
net.eval()

images, labels = next(iter(testloader))
outputs = net(images)
_, predicted = torch.max(outputs, 1)
print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
print('Predicted:   ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))
print('logits[0]:', ' '.join(f'{v:.4f}' for v in outputs[0].tolist()))

correct = 0
total = 0
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
        for label, prediction in zip(labels, predicted):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1

print(f'Accuracy of the network on the {total} test images: {100 * correct // total} %')
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / max(total_pred[classname], 1)
    print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} % of {total_pred[classname]}')
