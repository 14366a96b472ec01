"""The held-out split, and a tiny end-to-end run of train.py on synthetic records: it must
lower the held-out loss, write a net file the reader takes and a JSON report, in seconds."""

import json
import sys
from pathlib import Path

import numpy as np
import torch

from wuzinet import features, netfile, synthetic, trainer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import train as train_cli  # noqa: E402


def window_features(tmp_path, seed):
    """300 synthetic 9x9 records with window codes, written as a version-3 feature file;
    returns the trainer's arguments for it (small batches, a tenth held out, no epochs) and
    the records."""
    k, b, s, r = synthetic.make_records(300, 9, seed=seed)
    features.write_features(tmp_path / "v3.wzf", 9, k, b, s, r, windows=synthetic.make_windows(k, seed))
    args = ["--data", str(tmp_path / "v3.wzf"), "--batch", "32", "--lr", "0.01", "--held-out", "0.1",
            "--seed", "3"]
    return args, (k, b, s, r)


def test_split_holds_out_whole_games():
    games = np.repeat(np.arange(40), 10)
    tr, ho = trainer.split(games, 0.1, seed=7)
    assert len(tr) + len(ho) == 400 and not set(tr) & set(ho)
    assert len(np.unique(games[ho])) == 4
    assert not set(games[tr]) & set(games[ho])
    tr2, ho2 = trainer.split(games, 0.1, seed=7)
    assert np.array_equal(ho, ho2)
    assert not np.array_equal(ho, trainer.split(games, 0.1, seed=8)[1])
    # Always a game held out when asked, never all of them.
    assert len(trainer.split(np.array([0, 0, 1]), 0.01, 1)[1]) >= 1
    assert len(trainer.split(np.array([0, 0, 0]), 0.5, 1)[0]) == 3
    assert len(trainer.split(games, 0.0, 1)[1]) == 0


def test_keyed_split_keeps_its_games_when_data_is_added():
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 2**63, size=2000, dtype=np.uint64)
    games = np.repeat(np.arange(2000), 3)
    _, ho = trainer.split(games, 0.1, seed=7, game_keys=keys)
    held = set(np.unique(games[ho]))
    assert 150 < len(held) < 250, "about a tenth"
    # Each game's fate is its own: the first 1,000 games alone hold out the same ones.
    _, ho_half = trainer.split(games[:3000], 0.1, seed=7, game_keys=keys[:1000])
    assert set(np.unique(games[ho_half])) == {g for g in held if g < 1000}
    # Reordered games keep their fate (the key, not the place, decides).
    order = rng.permutation(2000)
    _, ho_perm = trainer.split(games, 0.1, seed=7, game_keys=keys[order])
    assert {int(order[g]) for g in np.unique(games[ho_perm])} == held
    assert set(np.unique(games[trainer.split(games, 0.1, seed=8, game_keys=keys)[1]])) != held
    # Always a game held out when asked, never all of them, none at 0.
    two = np.array([1, 2], dtype=np.uint64)
    assert len(trainer.split(np.array([0, 1]), 1e-9, 1, two)[1]) == 1
    assert len(trainer.split(np.array([0, 1]), 1.0, 1, two)[0]) == 1
    assert len(trainer.split(games, 0.0, 1, keys)[1]) == 0


def test_game_keys_follow_the_game_not_the_file(tmp_path):
    k, b, s, r = synthetic.make_records(60, 9, seed=4)
    features.write_features(tmp_path / "a.wzf", 9, k, b, s, r)
    features.write_features(tmp_path / "b.wzf", 9, k[30:], b[30:], s[30:], r[30:])
    one = trainer.load([tmp_path / "a.wzf"])
    both = trainer.load([tmp_path / "b.wzf", tmp_path / "a.wzf"])
    assert len(one.game_keys) == int(one.games.max()) + 1
    assert set(one.game_keys.tolist()) <= set(both.game_keys.tolist())
    assert len(set(one.game_keys.tolist())) > 1


def test_tiny_training_run_lowers_the_loss(tmp_path, capsys):
    for i, n in enumerate((250, 250)):
        k, b, s, r = synthetic.make_records(n, 9, seed=10 + i)
        features.write_features(tmp_path / f"part{i}.wzf", 9, k, b, s, r,
                                windows=synthetic.make_windows(k, 10 + i))
    out = tmp_path / "nets" / "tiny.wznet"
    code = train_cli.main(
        ["--data", str(tmp_path), "--out", str(out), "--epochs", "6", "--batch", "32",
         "--lr", "0.01", "--held-out", "0.1", "--seed", "3"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "epoch 6/6" in printed and "held-out value" in printed
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["data"]["positions"] == 500 and report["data"]["held_out_positions"] > 0
    assert report["data"]["held_out_split"] == "game key" and report["data"]["held_out_games"] >= 1
    first, last = report["held_out_initial"], report["held_out"]
    assert last["policy_loss"] < first["policy_loss"] - 1.0
    assert last["value_loss"] + last["policy_loss"] < first["value_loss"] + first["policy_loss"]
    assert last["policy_acc"] > 2 * report["held_out_baselines"]["policy_acc_uniform"]
    assert last["policy_acc"] <= last["policy_top3"] <= last["policy_top5"] <= 1.0
    assert report["epochs"][-1]["train"]["policy_loss"] < report["epochs"][0]["train"]["policy_loss"]
    params = netfile.read_net(out)
    assert params["embedding"].shape == (300, 32), "version 6 by default"
    assert params["policy.window"].shape == (6561,)
    # Exported as the inference holds it: the key vectors and policy weights in 1/64ths,
    # and the last epochs' held-out figures are those of that net.
    for name in ("embedding", "policy.weight"):
        assert np.array_equal(params[name] * 64, np.round(params[name] * 64))
    q = report["held_out_quantised"]
    assert abs(q["value_loss"] - last["value_loss"]) < 1e-4 and abs(q["policy_loss"] - last["policy_loss"]) < 1e-4
    assert len(report["net_sha256"]) == 64
    assert report["device"] == ("cuda" if torch.cuda.is_available() else "cpu"), "auto"


def test_the_device_is_cuda_where_present(tmp_path, capsys):
    args, _ = window_features(tmp_path, 4)
    args += ["--epochs", "1"]
    assert train_cli.main([*args, "--out", str(tmp_path / "cpu.wznet"), "--device", "cpu"]) == 0
    assert json.loads((tmp_path / "cpu.json").read_text())["device"] == "cpu"
    code = train_cli.main([*args, "--out", str(tmp_path / "gpu.wznet"), "--device", "cuda"])
    if torch.cuda.is_available():
        assert code == 0 and json.loads((tmp_path / "gpu.json").read_text())["device"].startswith("cuda")
        # The same net on either device, to rounding.
        a, g = netfile.read_net(tmp_path / "cpu.wznet"), netfile.read_net(tmp_path / "gpu.wznet")
        assert all(np.allclose(a[n], g[n], atol=1 / 32) for n in a)
    else:
        assert code == 2 and "no CUDA device" in capsys.readouterr().err


def test_bad_data_is_an_error_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.wzf"
    bad.write_bytes(b"NOTAFILE" + bytes(8))
    assert train_cli.main(["--data", str(bad), "--out", str(tmp_path / "x.wznet")]) == 2
    assert "magic" in capsys.readouterr().err
    # Files of the dropped window versions are refused, and named: features of version 2
    # (here an empty one: its 20-byte header) and a version-2 net to start from.
    old = tmp_path / "old.wzf"
    old.write_bytes(b"WUZIFEA2" + bytes([9, 144, 4, 0]) + bytes(4) + (7381).to_bytes(4, "little"))
    assert train_cli.main(["--data", str(old), "--out", str(tmp_path / "x.wznet")]) == 2
    assert "version 2 of the format (window rows), no longer read" in capsys.readouterr().err
    k, b, s, r = synthetic.make_records(40, 9, seed=1)
    features.write_features(tmp_path / "d.wzf", 9, k, b, s, r)
    net = tmp_path / "old.wznet"
    net.write_bytes(b"WUZINET2" + bytes(100))
    assert train_cli.main(["--data", str(tmp_path / "d.wzf"), "--out", str(tmp_path / "x.wznet"),
                           "--init", str(net)]) == 2
    assert "version 2 is no longer read" in capsys.readouterr().err


def test_training_can_start_from_a_net_file(tmp_path, capsys):
    k, b, s, r = synthetic.make_records(400, 9, seed=31)
    features.write_features(tmp_path / "d.wzf", 9, k, b, s, r, windows=synthetic.make_windows(k, 31))
    first = tmp_path / "first.wznet"
    args = ["--data", str(tmp_path / "d.wzf"), "--epochs", "3", "--batch", "32", "--lr", "0.01",
            "--held-out", "0.1", "--seed", "3"]
    assert train_cli.main(args + ["--out", str(first), "--hidden", "24"]) == 0
    # --hidden sets the value's width, in the file and in the report.
    p = netfile.read_net(first)
    assert p["value1.weight"].shape == (24, 32) and p["value2.weight"].shape == (24,)
    assert json.loads(first.with_suffix(".json").read_text())["net"]["H"] == 24
    # Started from the file, the net is the file's net: before any step its held-out figures
    # are those of the exported net (the normalisation the file folds is unfolded exactly).
    again = tmp_path / "again.wznet"
    zero = args[:3] + ["0"] + args[4:]
    assert train_cli.main(zero + ["--out", str(again), "--init", str(first)]) == 0
    was = json.loads(first.with_suffix(".json").read_text())["held_out_quantised"]
    now = json.loads(again.with_suffix(".json").read_text())
    assert now["net"]["H"] == 24, "the shape is the file's"
    for key in ("value_loss", "policy_loss", "policy_acc"):
        assert abs(now["held_out_initial"][key] - was[key]) < 1e-4, key
    # And it trains on from there.
    more = tmp_path / "more.wznet"
    assert train_cli.main(args + ["--out", str(more), "--init", str(first)]) == 0
    assert json.loads(more.with_suffix(".json").read_text())["held_out"]["policy_loss"] < was["policy_loss"] + 0.05
    # A file that is not a net is an error, not a traceback.
    capsys.readouterr()
    assert train_cli.main(zero + ["--out", str(tmp_path / "x.wznet"), "--init", str(tmp_path / "d.wzf")]) == 2
    assert "magic" in capsys.readouterr().err
    # A version-1 net trains as version 1 (--net-version 1), and a net started from it is
    # version 1 too: the file decides.
    for version, rows in ((1, 144),):
        net = tmp_path / f"v{version}.wznet"
        assert train_cli.main(args + ["--out", str(net), "--net-version", str(version)]) == 0
        assert netfile.read_net(net)["embedding"].shape == (rows, 32)
        started = tmp_path / f"from{version}.wznet"
        assert train_cli.main(zero + ["--out", str(started), "--init", str(net)]) == 0
        assert json.loads(started.with_suffix(".json").read_text())["net"]["version"] == version
        assert started.read_bytes()[:8] == b"WUZINET%d" % version


def test_a_version_6_net_trains_on_window_codes(tmp_path, capsys):
    base, (k, b, s, r) = window_features(tmp_path, 41)
    args = base + ["--epochs", "2"]
    six = tmp_path / "six.wznet"
    assert train_cli.main(args + ["--out", str(six), "--net-version", "6"]) == 0
    assert six.read_bytes()[:8] == b"WUZINET6"
    p = netfile.read_net(six)
    assert p["embedding"].shape == (300, 32) and p["policy.window"].shape == (6561,)
    # Exported in the inference's units, and the window term learned something (its
    # entries moved from zero).
    assert np.array_equal(p["policy.window"] * 1024, np.round(p["policy.window"] * 1024))
    assert np.abs(p["policy.window"]).max() > 0
    report = json.loads(six.with_suffix(".json").read_text())
    assert report["net"]["version"] == 6
    q, last = report["held_out_quantised"], report["held_out"]
    assert abs(q["policy_loss"] - last["policy_loss"]) < 1e-4
    # A version-1 net (trained on the same version-3 file, ignoring the codes) starts a
    # version-1 one whatever --net-version says: the file decides.
    one = tmp_path / "one.wznet"
    assert train_cli.main(args + ["--out", str(one), "--net-version", "1"]) == 0
    assert one.read_bytes()[:8] == b"WUZINET1"
    started = tmp_path / "started.wznet"
    zero = base + ["--epochs", "0"]
    assert train_cli.main(zero + ["--out", str(started), "--init", str(one), "--net-version", "6"]) == 0
    assert started.read_bytes()[:8] == b"WUZINET1"
    # Version-1 feature files hold no codes: a clear error.
    features.write_features(tmp_path / "v1.wzf", 9, k, b, s, r)
    capsys.readouterr()
    assert train_cli.main(["--data", str(tmp_path / "v1.wzf"), "--out", str(tmp_path / "x.wznet"),
                           "--net-version", "6", "--epochs", "1"]) == 2
    assert "version-3 feature files" in capsys.readouterr().err


def test_a_version_8_net_starts_from_a_version_6_net(tmp_path, capsys):
    """``--net-version 8 --init SIX``: the version-6 net's pair rows for both colours, the
    same held-out losses before training; then it trains its colours apart."""
    base, _ = window_features(tmp_path, 44)
    six = tmp_path / "six.wznet"
    assert train_cli.main(base + ["--epochs", "2", "--out", str(six), "--net-version", "6"]) == 0
    eight = tmp_path / "eight.wznet"
    assert train_cli.main(base + ["--epochs", "1", "--out", str(eight), "--init", str(six),
                                  "--net-version", "8"]) == 0
    assert eight.read_bytes()[:8] == b"WUZINET8"
    report = json.loads(eight.with_suffix(".json").read_text())
    assert report["net"]["version"] == 8 and report["net"]["K"] == 456
    before = json.loads(six.with_suffix(".json").read_text())["held_out_quantised"]
    start = report["held_out_initial"]
    assert abs(start["value_loss"] - before["value_loss"]) < 2e-3
    e = netfile.read_net(eight)["embedding"]
    assert not np.array_equal(e[144:300], e[300:])
    # Without --net-version 8 the version-6 file starts a version-6 net, as before.
    again = tmp_path / "again.wznet"
    assert train_cli.main(base + ["--epochs", "0", "--out", str(again), "--init", str(six)]) == 0
    assert again.read_bytes()[:8] == b"WUZINET6"


def test_value_only_training_keeps_the_cells_and_the_policy(tmp_path, capsys):
    base, _ = window_features(tmp_path, 43)
    args = base + ["--epochs", "2", "--net-version", "6"]
    first = tmp_path / "first.wznet"
    assert train_cli.main(args + ["--out", str(first)]) == 0
    more = tmp_path / "more.wznet"
    assert train_cli.main(args + ["--out", str(more), "--init", str(first), "--value-only"]) == 0
    a, b2 = netfile.read_net(first), netfile.read_net(more)
    for key in ("embedding", "policy.weight", "policy.bias", "policy.window"):
        assert np.array_equal(a[key], b2[key]), key
    assert not np.array_equal(a["value1.weight"], b2["value1.weight"])
    was = json.loads(first.with_suffix(".json").read_text())["held_out_quantised"]
    now = json.loads(more.with_suffix(".json").read_text())["held_out"]
    assert abs(now["policy_loss"] - was["policy_loss"]) < 1e-4
    # Without a net to start from: a clear error.
    capsys.readouterr()
    assert train_cli.main(args + ["--out", str(tmp_path / "x.wznet"), "--value-only"]) == 2
    assert "--value-only" in capsys.readouterr().err


def test_policy_only_training_keeps_the_cells_and_the_value(tmp_path, capsys):
    base, _ = window_features(tmp_path, 47)
    args = base + ["--epochs", "2"]
    six = tmp_path / "six.wznet"
    assert train_cli.main(args + ["--out", str(six), "--net-version", "6"]) == 0
    policy = tmp_path / "policy.wznet"
    assert train_cli.main(args + ["--out", str(policy), "--init", str(six), "--policy-only"]) == 0
    a, b2 = netfile.read_net(six), netfile.read_net(policy)
    assert np.array_equal(a["embedding"], b2["embedding"])
    assert not np.array_equal(a["policy.window"], b2["policy.window"])
    # The value is the file's: its held-out loss as before (the value input's normalisation is
    # folded in again around new statistics of the same cells, so not to the bit).
    was = json.loads(six.with_suffix(".json").read_text())["held_out_quantised"]
    now = json.loads(policy.with_suffix(".json").read_text())
    assert abs(now["held_out_quantised"]["value_loss"] - was["value_loss"]) < 1e-3
    assert now["held_out"]["policy_loss"] < now["held_out_initial"]["policy_loss"]
    # Without a net to start from, or with --value-only too: a clear error.
    for extra in (["--policy-only"], ["--init", str(six), "--policy-only", "--value-only"]):
        capsys.readouterr()
        assert train_cli.main(args + ["--out", str(tmp_path / "x.wznet")] + extra) == 2
        assert "--policy-only" in capsys.readouterr().err
