"""Classify made-up names by their "language" with a character-level RNN.

Follows PyTorch's "NLP From Scratch: Classifying Names with a Character-Level RNN" tutorial:
one-hot letters, first a hand-written RNN cell (Linear + tanh, LogSoftmax, NLLLoss, parameters
updated by hand), then the same task with nn.RNN trained in mini-batches by optim.SGD with
clip_grad_norm_.
Guide: docs/source/internals/programs/index.rst.
"""
import string

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)

# A tiny synthetic name list: each "language" strings together its own syllables.
syllables = {
    'Italianish': ['ro', 'ma', 'ti', 'no', 'lu', 'ci', 'bel', 'ri'],
    'Slavish': ['kov', 'ski', 'vich', 'dra', 'mir', 'zy', 'ov', 'rad'],
    'Japanish': ['ka', 'to', 'mi', 'su', 'ki', 'ya', 'shi', 'ha'],
    'Englishish': ['son', 'ley', 'ton', 'ford', 'wood', 'smith', 'ash', 'hill'],
}
all_categories = list(syllables)
n_categories = len(all_categories)

category_lines = {}
for category, parts in syllables.items():
    names = []
    for _ in range(40):
        count = int(torch.randint(2, 4, ()).item())
        picks = torch.randint(0, len(parts), (count,)).tolist()
        names.append(''.join(parts[i] for i in picks).capitalize())
    category_lines[category] = names
print("categories:", n_categories, "names:", sum(len(v) for v in category_lines.values()))
print("examples:", ' '.join(category_lines[c][0] for c in all_categories))


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    """A name as a <line_length x 1 x n_letters> tensor of one-hot rows."""
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(lineToTensor('Jones').size())


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        hidden = F.tanh(self.i2h(input) + self.h2h(hidden))
        output = self.h2o(hidden)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 64
rnn = RNN(n_letters, n_hidden, n_categories)

output, next_hidden = rnn(lineToTensor('Albert')[0], rnn.initHidden())
print("first output:", ' '.join(f'{v:.5f}' for v in output[0].tolist()))


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


def randomTrainingExample():
    category = all_categories[torch.randint(0, n_categories, ()).item()]
    lines = category_lines[category]
    line = lines[torch.randint(0, len(lines), ()).item()]
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    return category, line, category_tensor, lineToTensor(line)


criterion = nn.NLLLoss()
learning_rate = 0.005


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    # Add parameters' gradients to their values, multiplied by learning rate
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


n_iters = 1200
print_every = 200
current_loss = 0
for iter in range(1, n_iters + 1):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if iter % print_every == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = 'right' if guess == category else f'wrong ({category})'
        print(f'{iter} {iter / n_iters * 100:.0f}% {current_loss / print_every:.4f} {line} / {guess} {correct}')
        current_loss = 0

confusion = torch.zeros(n_categories, n_categories)


def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output


with torch.no_grad():
    for i in range(100):
        category, line, category_tensor, line_tensor = randomTrainingExample()
        guess, guess_i = categoryFromOutput(evaluate(line_tensor))
        confusion[all_categories.index(category)][guess_i] += 1
confusion = confusion / confusion.sum(1, keepdim=True)
for i, category in enumerate(all_categories):
    print(f'{category:12s}', ' '.join(f'{v:.2f}' for v in confusion[i].tolist()))


def predict(input_line, n_predictions=3):
    print(f'> {input_line}')
    with torch.no_grad():
        output = evaluate(lineToTensor(input_line))
        topv, topi = output.topk(n_predictions, 1, True)
        for i in range(n_predictions):
            value = topv[0][i].item()
            category_index = topi[0][i].item()
            print(f'({value:.3f}) {all_categories[category_index]}')


predict('Romano')
predict('Dramirov')
predict('Ashford')


# The same task with nn.RNN: the whole name goes in at once, the last hidden state is classified.
class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output


torch.manual_seed(1)
model = CharRNN(n_letters, 48, n_categories)
print(model)
data = [(lineToTensor(name), torch.tensor([i], dtype=torch.long))
        for i, c in enumerate(all_categories) for name in category_lines[c]]
optimizer = torch.optim.SGD(model.parameters(), lr=0.15)
model.train()
for epoch in range(1, 6):
    batches = torch.randperm(len(data)).split(32)
    epoch_loss = 0.0
    for batch in batches:
        batch_loss = 0
        for i in batch.tolist():
            line_tensor, label_tensor = data[i]
            output = model(line_tensor)
            batch_loss += criterion(output, label_tensor)
        batch_loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 3)
        optimizer.step()
        optimizer.zero_grad()
        epoch_loss += batch_loss.item() / len(batch)
    print(f'epoch {epoch}: average batch loss = {epoch_loss / len(batches):.5f}')

model.eval()
with torch.no_grad():
    correct = sum(int(model(t).argmax(1).item() == l.item()) for t, l in data)
print(f'nn.RNN training accuracy: {correct}/{len(data)}')
