"""Train a 2-layer LSTM word language model on a synthetic corpus, evaluate it, and sample from it.

Follows pytorch/examples word_language_model (data.py, model.py's RNNModel, main.py, generate.py):
nn.Embedding + nn.LSTM with dropout and tied encoder/decoder weights, batchify/get_batch over a
token stream, hidden state repackaged between batches, clip_grad_norm_, a hand-written SGD step,
evaluation under torch.no_grad, and word sampling with torch.multinomial.
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1111)


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


# A synthetic corpus: sentences from a tiny grammar, the words drawn with torch's generator.
subjects = ['the cat', 'the dog', 'a bird', 'my friend', 'the teacher', 'a child']
verbs = ['sees', 'likes', 'finds', 'follows', 'hears', 'paints']
objects = ['the house', 'a tree', 'the river', 'an apple', 'the moon', 'a song']
endings = ['today', 'again', 'at night', 'in the park', 'slowly', 'with joy']


def sentences(n):
    picks = torch.randint(0, 6, (n, 4)).tolist()
    return [f'{subjects[s]} {verbs[v]} {objects[o]} {endings[e]}' for s, v, o, e in picks]


dictionary = Dictionary()


def tokenize(lines):
    ids = []
    for line in lines:
        for word in line.split() + ['<eos>']:
            ids.append(dictionary.add_word(word))
    return torch.tensor(ids, dtype=torch.int64)


train_data = tokenize(sentences(300))
val_data = tokenize(sentences(40))
print('first sentence:', ' '.join(dictionary.idx2word[i] for i in train_data[:10].tolist()))
print('tokens:', train_data.numel(), val_data.numel(), 'vocabulary:', len(dictionary))


def batchify(data, bsz):
    # Work out how cleanly we can divide the dataset into bsz parts.
    nbatch = data.size(0) // bsz
    # Trim off any extra elements that wouldn't cleanly fit (remainders).
    data = data.narrow(0, 0, nbatch * bsz)
    # Evenly divide the data across the bsz batches.
    data = data.view(bsz, -1).t().contiguous()
    return data


batch_size = 16
eval_batch_size = 10
train_data = batchify(train_data, batch_size)
val_data = batchify(val_data, eval_batch_size)
print('batchified:', tuple(train_data.shape), tuple(val_data.shape))


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity='tanh', dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)

        # "Using the Output Embedding to Improve Language Models" (Press & Wolf 2016)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight

        self.init_weights()

        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


ntokens = len(dictionary)
model = RNNModel('LSTM', ntokens, 32, 32, 2, dropout=0.2, tie_weights=True)
print(model)
print('tied:', model.decoder.weight is model.encoder.weight,
      'parameters:', sum(p.numel() for p in model.parameters()))
criterion = nn.NLLLoss()
bptt = 12
clip = 0.25
log_interval = 5


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def evaluate(data_source):
    # Turn on evaluation mode which disables dropout.
    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(epoch, lr):
    # Turn on training mode which enables dropout.
    model.train()
    total_loss = 0.
    hidden = model.init_hidden(batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        # If we didn't, the model would try backpropagating all the way to start of the dataset.
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()

        # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)

        total_loss += loss.item()

        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.3f} | ppl {:8.3f}'.format(
                epoch, batch, len(train_data) // bptt, lr, cur_loss, math.exp(cur_loss)))
            total_loss = 0


lr = 20
best_val_loss = None
for epoch in range(1, 5):
    train(epoch, lr)
    val_loss = evaluate(val_data)
    print('| end of epoch {:3d} | valid loss {:5.3f} | valid ppl {:8.3f}'.format(
        epoch, val_loss, math.exp(val_loss)))
    if not best_val_loss or val_loss < best_val_loss:
        best_val_loss = val_loss
    else:
        # Anneal the learning rate if no improvement has been seen in the validation dataset.
        lr /= 4.0

# generate.py: sample words, feeding each one back in.
model.eval()
hidden = model.init_hidden(1)
input = torch.randint(ntokens, (1, 1), dtype=torch.long)
words = []
with torch.no_grad():  # no tracking history
    for i in range(30):
        output, hidden = model(input, hidden)
        word_weights = output.squeeze().div(1.0).exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        input.fill_(word_idx)
        words.append(dictionary.idx2word[word_idx])
print('generated:', ' '.join(words).replace('<eos>', '|'))
