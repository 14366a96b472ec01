"""The network: the sparse gather equals PyTorch's embedding bag (values and gradients),
stones add nothing, the four directions are interchangeable, and the value target."""

import math

import numpy as np
import torch

from wuzinet import model, synthetic


def test_sum_gather_matches_embedding_bag():
    torch.manual_seed(0)
    idx = torch.randint(0, 145, (500, 4))
    table = torch.randn(145, 32, requires_grad=True)
    ref_table = table.detach().clone().requires_grad_()
    grad = torch.randn(500, 32)
    out = model.SumGather.apply(idx, table)
    ref = torch.nn.functional.embedding_bag(idx, ref_table, mode="sum")
    assert torch.allclose(out, ref, atol=1e-5)
    out.backward(grad)
    ref.backward(grad)
    assert torch.allclose(table.grad, ref_table.grad, atol=1e-4)


def test_gradient_check():
    torch.manual_seed(1)
    idx = torch.randint(0, 10, (30, 4))
    table = torch.randn(10, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: model.SumGather.apply(idx, t), (table,))


def test_folded_is_the_same_function():
    torch.manual_seed(4)
    net = model.WuziNet(version=1)
    keys = model.WuziNet.prepare_keys(torch.from_numpy(synthetic.make_records(64, 9, 4)[0]))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(5):  # moves the weights and the running statistics
        z, logits = net(keys)
        opt.zero_grad()
        (z.square().mean() + logits[torch.isfinite(logits)].square().mean()).backward()
        opt.step()
    assert net.value_norm.running_mean.abs().max() > 0.01
    net.eval()
    folded = net.folded()
    with torch.no_grad():
        z, logits = net(keys)
        z2, logits2 = folded(keys)
    assert torch.allclose(z, z2, atol=1e-5)
    assert torch.equal(logits, logits2)
    assert folded.value_norm.running_mean.abs().max() == 0 and folded.value_norm.eps == 0


def net_outputs(net, keys, windows):
    with torch.no_grad():
        return net(model.WuziNet.prepare_keys(torch.as_tensor(keys)), torch.as_tensor(windows).long())


def test_stones_add_nothing_and_directions_are_symmetric():
    torch.manual_seed(2)
    net = model.WuziNet()
    with torch.no_grad():
        net.window.uniform_(-0.5, 0.5)
    net = net.folded()
    keys_np = synthetic.make_records(6, 9, 2)[0]
    keys = torch.from_numpy(keys_np)
    windows = torch.from_numpy(synthetic.make_windows(keys_np, 2).astype(np.int64))
    z, logits = net_outputs(net, keys, windows)
    # The four directions in another order: the same outputs.
    z2, logits2 = net_outputs(net, keys[:, :, [2, 0, 3, 1]], windows[:, :, [2, 0, 3, 1]])
    assert torch.allclose(z, z2, atol=1e-6) and torch.equal(torch.isinf(logits), torch.isinf(logits2))
    assert torch.allclose(logits[~torch.isinf(logits)], logits2[~torch.isinf(logits2)], atol=1e-6)
    # A board of stones but one empty cell: the value input is that cell's activation / 32.
    one = torch.full((1, 81, 4), 255, dtype=torch.uint8)
    one[0, 40] = torch.tensor([5, 17, 40, 100], dtype=torch.uint8)
    # Its pair rows: its own patterns 0, 1, 3, 8 give the pair (8, 3), 8 * 9 / 2 + 3 = 39,
    # row 144 + 39; the other side's 5, 5, 4, 4 the pair (5, 5), 20, row 144 + 78 + 20.
    a = net.embedding.detach()[[5, 17, 40, 100, 144 + 39, 144 + 78 + 20]].sum(0).clamp(0, 1)
    hidden = net.value1(a / model.VALUE_DIVISOR).clamp(0, 1)
    expected = net.value2(hidden).item()
    z, logits = net_outputs(net, one, torch.zeros(1, 81, 4, dtype=torch.long))
    assert abs(z.item() - expected) < 1e-6
    assert torch.isinf(logits[0, :40]).all() and torch.isfinite(logits[0, 40])
    assert torch.softmax(logits, 1)[0, 40].item() == 1.0


def test_value_target():
    score, result = torch.tensor([0, 400, -30000, 0]), torch.tensor([0, 1, -1, 1])
    # A blend: half the result, half the score through the sigmoid at SCORE_SCALE.
    t = model.value_target(score, result, lam=0.5)
    assert abs(t[0] - 0.5) < 1e-6
    assert abs(t[1] - (0.5 + 0.5 / (1 + math.exp(-1)))) < 1e-6
    assert t[2] < 1e-6
    assert abs(t[3] - 0.75) < 1e-6
    # The default (LAMBDA 1.0): the game's result alone, whatever the score.
    assert model.LAMBDA == 1.0
    t = model.value_target(score, result)
    assert torch.allclose(t, torch.tensor([0.5, 1.0, 0.0, 1.0]))


def test_fake_quant_is_the_rounded_net():
    from wuzinet import netfile

    torch.manual_seed(6)
    net = model.WuziNet(version=1).folded()
    keys = model.WuziNet.prepare_keys(torch.from_numpy(synthetic.make_records(8, 9, 6)[0]))
    rounded = model.WuziNet(version=1)
    netfile.load_into(rounded, netfile.quantised(netfile.params_of(net)))
    net.quant = netfile.QUANT
    with torch.no_grad():
        z, logits = net(keys)
        z2, logits2 = rounded(keys)
    assert torch.allclose(z, z2, atol=1e-6) and torch.allclose(logits, logits2, atol=1e-6)
    # Straight through: the gradient reaches the unrounded weights.
    z, logits = net(keys)
    z.sum().backward()
    assert net.embedding.grad is not None and net.embedding.grad.abs().sum() > 0


def test_top_k_hits_ranks_the_best_move():
    logits = torch.tensor([[0.0, 3.0, 1.0, 2.0, float("-inf")],
                           [5.0, 4.0, 3.0, 2.0, 1.0]])
    best = torch.tensor([3, 4])
    # Row 0 ranks cell 3 second; row 1 ranks cell 4 fifth.
    assert model.top_k_hits(logits, best, (1, 3, 5)) == [0, 1, 2]
    assert model.top_k_hits(logits, best, (9,)) == [2], "k beyond the cells is every cell"
