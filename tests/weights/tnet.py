import torch.nn as nn


class Net(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.conv = nn.Conv1d(4, 8, 3)
        self.bn = nn.BatchNorm1d(8)
        self.act = nn.PReLU(8)
        self.rnn = nn.LSTM(8, 6, batch_first=True)
        self.norm = nn.LayerNorm(6)
        self.head = nn.Linear(6, classes)

    def forward(self, ids):
        x = self.emb(ids).transpose(1, 2)
        x = self.act(self.bn(self.conv(x)))
        x, _ = self.rnn(x.transpose(1, 2))
        return self.head(self.norm(x))
