"""Train a small nn.TransformerEncoder word language model on a synthetic corpus and sample from it.

Follows the Transformer variant of pytorch/examples word_language_model (model.py's PositionalEncoding
and TransformerModel, main.py, generate.py) and PyTorch's "Language Modeling with nn.Transformer"
tutorial: sinusoidal positions in a registered buffer, a square subsequent (causal) mask,
TransformerEncoderLayer with dropout, clip_grad_norm_, a hand-written SGD step.
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1111)

subjects = ['the cat', 'the dog', 'a bird', 'my friend', 'the teacher', 'a child']
verbs = ['sees', 'likes', 'finds', 'follows', 'hears', 'paints']
objects = ['the house', 'a tree', 'the river', 'an apple', 'the moon', 'a song']
endings = ['today', 'again', 'at night', 'in the park', 'slowly', 'with joy']


def sentences(n):
    picks = torch.randint(0, 6, (n, 4)).tolist()
    return [f'{subjects[s]} {verbs[v]} {objects[o]} {endings[e]}' for s, v, o, e in picks]


word2idx, idx2word = {}, []


def tokenize(lines):
    ids = []
    for line in lines:
        for word in line.split() + ['<eos>']:
            if word not in word2idx:
                idx2word.append(word)
                word2idx[word] = len(idx2word) - 1
            ids.append(word2idx[word])
    return torch.tensor(ids, dtype=torch.int64)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


train_data = batchify(tokenize(sentences(300)), 16)
val_data = batchify(tokenize(sentences(40)), 10)
print('train:', tuple(train_data.shape), 'valid:', tuple(val_data.shape), 'vocabulary:', len(idx2word))


class PositionalEncoding(nn.Module):
    r"""Inject some information about the relative or absolute position of the tokens in the sequence.

        PE(pos, 2i) = sin(pos/10000^(2i/d_model))
        PE(pos, 2i+1) = cos(pos/10000^(2i/d_model))
    """

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)

        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


def generate_square_subsequent_mask(sz):
    """A float mask: 0 where position j may be attended from position i (j <= i), -inf above."""
    return torch.triu(torch.ones(sz, sz) * float('-inf'), diagonal=1)


class TransformerModel(nn.Module):
    """Container module with an encoder, a Transformer encoder stack, and a decoder."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__()
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = generate_square_subsequent_mask(len(src))
        else:
            self.src_mask = None

        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


print('mask(4):', generate_square_subsequent_mask(4).tolist())
ntokens = len(idx2word)
model = TransformerModel(ntokens, 32, 2, 64, 2, dropout=0.2)
print(model.transformer_encoder.layers[0])
print('parameters:', sum(p.numel() for p in model.parameters()))
criterion = nn.NLLLoss()
bptt = 12


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def evaluate(data_source):
    model.eval()
    total_loss = 0.
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output = model(data)
            output = output.view(-1, ntokens)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(epoch, lr):
    model.train()
    total_loss = 0.
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        output = model(data)
        output = output.view(-1, ntokens)
        loss = criterion(output, targets)
        loss.backward()

        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)

        total_loss += loss.item()
        if batch % 4 == 0 and batch > 0:
            cur_loss = total_loss / 4
            print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.3f} | ppl {:8.3f}'.format(
                epoch, batch, len(train_data) // bptt, lr, cur_loss, math.exp(cur_loss)))
            total_loss = 0


lr = 1.0
for epoch in range(1, 4):
    train(epoch, lr)
    val_loss = evaluate(val_data)
    print('| end of epoch {:3d} | valid loss {:5.3f} | valid ppl {:8.3f}'.format(
        epoch, val_loss, math.exp(val_loss)))

# generate.py for the Transformer: the whole prefix goes back in, the last position is sampled.
model.eval()
input = torch.randint(ntokens, (1, 1), dtype=torch.long)
with torch.no_grad():
    for i in range(20):
        output = model(input, False)
        word_weights = output[-1].squeeze().div(0.8).exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        word_tensor = torch.Tensor([[word_idx]]).long()
        input = torch.cat([input, word_tensor], 0)
print('generated:', ' '.join(idx2word[i] for i in input.view(-1).tolist()).replace('<eos>', '|'))
