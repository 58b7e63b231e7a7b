import mindspore.nn as nn


class Net(nn.Cell):
    def __init__(self, classes=3):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.conv = nn.Conv1d(4, 8, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm1d(8)
        self.act = nn.PReLU(8)
        self.rnn = nn.LSTM(8, 6, batch_first=True)
        self.norm = nn.LayerNorm((6,), epsilon=1e-5)
        self.head = nn.Dense(6, classes)

    def construct(self, ids):
        x = self.emb(ids).transpose(0, 2, 1)
        x = self.act(self.bn(self.conv(x)))
        x, _ = self.rnn(x.transpose(0, 2, 1))
        return self.head(self.norm(x))
