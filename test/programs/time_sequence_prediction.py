"""Learn sine waves with two stacked LSTMCells, trained by L-BFGS, then predict their continuation.

Follows pytorch/examples time_sequence_prediction (generate_sine_wave.py and train.py): float64 model,
nn.MSELoss, optim.LBFGS(lr=0.8) with a closure, and future prediction under torch.no_grad, on
shorter waves and for fewer steps so that it runs in seconds.
Guide: docs/source/internals/programs/index.rst.
"""
import torch
import torch.nn as nn
import torch.optim as optim

# generate_sine_wave.py: N waves of length L, each shifted by a random phase.
torch.manual_seed(2)
T = 20
L = 60
N = 12
x = torch.arange(L).repeat(N, 1) + torch.randint(-4 * T, 4 * T, (N, 1))
data = torch.sin(x / 1.0 / T).to(torch.float64)
print("data:", tuple(data.shape), data.dtype, "first row:", ' '.join(f'{v:.6f}' for v in data[0, :5].tolist()))


class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs


# train.py
torch.manual_seed(0)
input = data[3:, :-1]
target = data[3:, 1:]
test_input = data[:3, :-1]
test_target = data[:3, 1:]
seq = Sequence()
seq.double()
criterion = nn.MSELoss()
# use LBFGS as optimizer since we can load the whole data to train
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=8)
for i in range(3):
    print('STEP: ', i)

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print('loss:', loss.item())
        loss.backward()
        return loss
    optimizer.step(closure)
    # begin to predict, no need to track gradient here
    with torch.no_grad():
        future = 20
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', loss.item())
        y = pred.detach()
    print('future of wave 0:', ' '.join(f'{v:.5f}' for v in y[0, -future::4].tolist()))
