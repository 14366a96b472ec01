"""The .wznet writer and reader: the exact layout, a bit-exact round trip, malformed files
refused, and the numpy reference forward pass equal to the trainer's model."""

import struct

import numpy as np
import pytest
import torch

from wuzinet import features, model, netfile, synthetic
from wuzinet.netfile import NetFileError

F, H = 32, 16
# Rows of the table and the magic, per version.
VERSIONS = {1: (144, b"WUZINET1"), 6: (300, b"WUZINET6"), 8: (456, b"WUZINET8")}


def floats_of(k, windows=False):
    return k * F + H * F + H + H + 1 + F + 1 + (netfile.WINDOW_CODES if windows else 0)


def synthetic_inputs(n, size, seed):
    """Keys [n, S*S, 4] and their made-up window codes."""
    keys = synthetic.make_records(n, size, seed)[0]
    return keys, synthetic.make_windows(keys, seed)


def trained_like_net(seed=3, version=6):
    torch.manual_seed(seed)
    net = model.WuziNet(version=version)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    return net.folded()


@pytest.mark.parametrize("version", [1, 6, 8])
def test_layout(tmp_path, version):
    K, magic = VERSIONS[version]
    FLOATS = floats_of(K, version != 1)
    net = trained_like_net(version=version)
    path = tmp_path / "n.wznet"
    digest = netfile.write_net(path, netfile.params_of(net))
    data = path.read_bytes()
    assert len(digest) == 64
    assert len(data) == 8 + 12 + 4 * FLOATS + 4 == netfile.file_bytes(K, F, H, version != 1)
    assert data[:8] == magic
    assert struct.unpack_from("<III", data, 8) == (K, F, H)
    assert struct.unpack_from("<I", data, len(data) - 4)[0] == 0xC0FFEE
    floats = np.frombuffer(data, dtype="<f4", count=FLOATS, offset=20)
    e = net.embedding.detach().numpy()
    assert np.array_equal(floats[: K * F], e.reshape(-1))  # E[K][F], key-major
    o = K * F
    assert np.array_equal(floats[o : o + H * F], net.value1.weight.detach().numpy().reshape(-1))
    o += H * F
    assert np.array_equal(floats[o : o + H], net.value1.bias.detach().numpy())
    o += H
    assert np.array_equal(floats[o : o + H], net.value2.weight.detach().numpy().reshape(-1))
    o += H
    assert floats[o] == net.value2.bias.item()
    o += 1
    assert np.array_equal(floats[o : o + F], net.policy.weight.detach().numpy().reshape(-1))
    o += F
    assert floats[o] == net.policy.bias.item()
    o += 1
    if version != 1:
        assert np.array_equal(floats[o : o + netfile.WINDOW_CODES], net.window.detach().numpy())
        o += netfile.WINDOW_CODES
    assert o == FLOATS


@pytest.mark.parametrize("version", [1, 6, 8])
def test_round_trip(tmp_path, version):
    net = trained_like_net(version=version)
    path = tmp_path / "n.wznet"
    netfile.write_net(path, netfile.params_of(net))
    params = netfile.read_net(path)
    for name, a in netfile.params_of(net).items():
        assert params[name].dtype == np.float32
        assert np.array_equal(params[name], a), name
    other = model.WuziNet(version=version)
    netfile.load_into(other, params)
    keys, windows = synthetic_inputs(8, 9, 1)
    keys = model.WuziNet.prepare_keys(torch.from_numpy(keys))
    windows = torch.from_numpy(windows.astype(np.int64))
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(net(keys, windows), other(keys, windows)))
    # Written again, the same bytes.
    path2 = tmp_path / "n2.wznet"
    netfile.write_net(path2, params)
    assert path2.read_bytes() == path.read_bytes()


def test_malformed(tmp_path):
    good = netfile.to_bytes(netfile.params_of(trained_like_net()))
    cases = [
        (b"WUZINET9" + good[8:], "magic"),
        (good[:-4], "bytes, expected"),
        (good + b"\0", "bytes, expected"),
        (good[:-4] + struct.pack("<I", 0xBEEF), "trailer"),
        (good[:8] + struct.pack("<I", 145) + good[12:], "expected"),
        # A version-1 magic on a version-6 table.
        (b"WUZINET1" + good[8:], "K=300, expected 144"),
        (good[:10], "too short"),
    ]
    for data, message in cases:
        with pytest.raises(NetFileError, match=message):
            netfile.from_bytes(data)
    params = netfile.params_of(trained_like_net())
    params["value1.bias"][3] = np.nan
    with pytest.raises(NetFileError, match="not finite"):
        netfile.to_bytes(params)
    # Version 1 sums five rows, version 6 six: its limit is lower.
    params = netfile.params_of(trained_like_net(version=1))
    params["embedding"][7, 3] = 101.5
    with pytest.raises(NetFileError, match="beyond the inference"):
        netfile.to_bytes(params)
    params["embedding"][7, 3] = -101.3
    netfile.to_bytes(params)
    six = netfile.params_of(trained_like_net(version=6))
    six["embedding"][7, 3] = 90.0
    with pytest.raises(NetFileError, match="beyond the inference's 84.3"):
        netfile.to_bytes(six)
    six["embedding"][7, 3] = 1.0
    params["policy.weight"][0] = 200.0
    with pytest.raises(NetFileError, match="policy.weight"):
        netfile.to_bytes(params)
    # The window entries have their own limit (i16 at 1/1024), and a window table goes with
    # version 6's rows only, and version 6's rows with a window table.
    six["policy.window"][5] = 31.5
    with pytest.raises(NetFileError, match="policy.window: a weight of 31.5, beyond the inference's 31.0"):
        netfile.to_bytes(six)
    six["policy.window"][5] = 30.5
    good6 = netfile.to_bytes(six)
    with pytest.raises(NetFileError, match="bytes, expected"):
        netfile.from_bytes(good6[:-8] + good6[-4:])
    q6 = netfile.quantised(six)
    assert np.array_equal(q6["policy.window"] * 1024, np.round(q6["policy.window"] * 1024))
    params["policy.weight"][0] = 0.5
    params["policy.window"] = six["policy.window"]
    with pytest.raises(NetFileError, match="a version-6 net has 300 rows and the window table"):
        netfile.to_bytes(params)
    del six["policy.window"]
    with pytest.raises(NetFileError, match="without policy.window"):
        netfile.to_bytes(six)
    q = netfile.quantised(netfile.params_of(trained_like_net()))
    assert np.array_equal(q["embedding"] * 64, np.round(q["embedding"] * 64))
    assert np.array_equal(q["value1.weight"], netfile.params_of(trained_like_net())["value1.weight"])
    # A net whose value normalisation is not folded in is not exported as it is.
    with pytest.raises(ValueError, match="folded"):
        netfile.params_of(model.WuziNet())


@pytest.mark.parametrize("version", [1, 6, 8])
def test_reference_forward_matches_model(version):
    net = trained_like_net(5, version)
    params = netfile.params_of(net)
    keys, windows = synthetic_inputs(20, 15, 4)
    idx = model.WuziNet.prepare_keys(torch.from_numpy(keys))
    with torch.no_grad():
        z, logits = net(idx, torch.from_numpy(windows.astype(np.int64)))
    for i in range(len(keys)):
        rz, rp, rlogits, probs = netfile.reference_forward(params, keys[i], windows=windows[i])
        assert abs(rz - float(z[i])) < 1e-4
        empty = keys[i, :, 0] != features.OCCUPIED
        assert np.all(np.isneginf(rlogits[~empty])) and np.all(np.isneginf(logits[i][~empty].numpy()))
        assert np.allclose(rlogits[empty], logits[i][empty].numpy(), atol=1e-4)
        assert abs(probs.sum() - 1) < 1e-9 and np.all(probs[~empty] == 0)


def test_a_version_8_net_reads_its_pair_rows_by_the_colour_to_move():
    """With black to move (an even number of stones) a version-8 net made from a version-6
    net's rows is that net; with white to move it reads the second set, so changing the
    second set changes white's positions alone."""
    six = trained_like_net(5, 6)
    params = netfile.with_colour_pairs(netfile.params_of(six))
    assert params["embedding"].shape == (456, F)
    eight = model.WuziNet(version=8)
    netfile.load_into(eight, params)
    keys, windows = synthetic_inputs(30, 15, 6)
    stones = (keys[:, :, 0] == features.OCCUPIED).sum(axis=1)
    assert {0, 1} <= set(stones % 2)
    idx = model.WuziNet.prepare_keys(torch.from_numpy(keys))
    w = torch.from_numpy(windows.astype(np.int64))
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(six(idx, w), eight(idx, w)))
        eight.embedding[300:] += 0.25
        z8, _ = eight(idx, w)
        z6, _ = six(idx, w)
    white = torch.from_numpy(stones % 2 == 1)
    assert torch.equal(z8[~white], z6[~white])
    assert not torch.any(z8[white] == z6[white])
    with pytest.raises(NetFileError, match="version-6"):
        netfile.with_colour_pairs(netfile.params_of(trained_like_net(5, 1)))


def test_check_net_cli(tmp_path, capsys):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import check_net

    net = tmp_path / "n.wznet"
    netfile.write_net(net, netfile.params_of(trained_like_net()))
    k, b, s, r = synthetic.make_records(4, 9, 0)
    data = tmp_path / "d.wzf"
    features.write_features(data, 9, k, b, s, r, windows=synthetic.make_windows(k, 0))
    assert check_net.main(["--net", str(net), "--data", str(data), "--records", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("record ") == 3 and "3 records: value loss" in out
    assert check_net.main(["--net", str(data), "--data", str(data)]) == 2
    assert "magic" in capsys.readouterr().err


def window_net_bytes(version):
    """A net file of the dropped versions 2 and 3 as the trainer wrote them: a fifth header
    word W (7381) and the window table W[W][F] right after E; the later dropped versions
    under the same bytes (refused by their magic all the same)."""
    w, K = 7381, 144
    floats = K * F + w * F + H * F + H + H + 1 + F + 1
    return (struct.pack("<8sIIII", b"WUZINET%d" % version, K, F, H, w)
            + np.zeros(floats, dtype="<f4").tobytes() + struct.pack("<I", 0xC0FFEE))


@pytest.mark.parametrize("version", [2, 3, 4, 5, 7])
def test_dropped_versions_are_refused(tmp_path, capsys, version):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import check_net

    data = window_net_bytes(version)
    assert len(data) == 965_540
    message = rf"magic b'WUZINET{version}', expected b'WUZINET1', b'WUZINET6' or b'WUZINET8' \(version {version} is no longer read"
    with pytest.raises(NetFileError, match=message):
        netfile.from_bytes(data)
    # The command line says so, without a traceback.
    net = tmp_path / "w.wznet"
    net.write_bytes(data)
    k, b, s, r = synthetic.make_records(2, 9, 0)
    features.write_features(tmp_path / "d.wzf", 9, k, b, s, r)
    assert check_net.main(["--net", str(net), "--data", str(tmp_path / "d.wzf")]) == 2
    assert f"version {version} is no longer read" in capsys.readouterr().err
