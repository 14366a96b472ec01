"""The .wzf reader: contents read back, and every malformed file refused with a clear
error."""

import numpy as np
import pytest

from wuzinet import features, synthetic
from wuzinet.features import FeatureFileError


def write(tmp_path, n=50, size=7, seed=0, name="a.wzf"):
    k, b, s, r = synthetic.make_records(n, size, seed)
    path = tmp_path / name
    features.write_features(path, size, k, b, s, r)
    return path, (k, b, s, r)


def test_round_trip(tmp_path):
    path, (k, b, s, r) = write(tmp_path)
    f = features.open_features(path)
    assert f.size == 7 and len(f) == 50
    assert path.stat().st_size == 16 + 50 * (4 * 49 + 6)
    assert np.array_equal(f.records["keys"], k)
    assert np.array_equal(f.records["best"], b)
    assert np.array_equal(f.records["score"], s)
    assert np.array_equal(f.records["result"], r)


def test_version_3_round_trip(tmp_path):
    k, b, s, r = synthetic.make_records(30, 7, 2)
    w = synthetic.make_windows(k, 2)
    path = tmp_path / "v3.wzf"
    features.write_features(path, 7, k, b, s, r, windows=w)
    assert path.read_bytes()[:8] == b"WUZIFEA3"
    assert path.stat().st_size == 16 + 30 * (12 * 49 + 6)
    f = features.open_features(path)
    assert f.windows and len(f) == 30
    assert np.array_equal(f.records["keys"], k)
    assert np.array_equal(f.records["windows"], w)
    assert np.array_equal(f.records["best"], b)
    # A code beyond 3^8 - 1 is refused, naming the record.
    bad = w.copy()
    bad[4, 10, 2] = 6561
    features.write_features(path, 7, k, b, s, r, windows=bad)
    with pytest.raises(FeatureFileError, match="record 4: a window code outside 0..6560"):
        features.open_features(path)
    # Versions 1 and 3 are not trained together.
    features.write_features(tmp_path / "v3.wzf", 7, k, b, s, r, windows=w)
    write(tmp_path, name="v1.wzf")
    with pytest.raises(FeatureFileError, match="versions 1 and 3"):
        features.load_records([tmp_path])


def test_version_3_layout_by_hand(tmp_path):
    # One 5x5 record: keys, then the codes (u16 per cell and direction), then the tail.
    body = bytearray()
    for cell in range(25):
        body += bytes([255] * 4) if cell == 12 else bytes([cell, cell + 1, 143, 0])
    for cell in range(25):
        for d in range(4):
            body += (0 if cell == 12 else 100 * cell + d).to_bytes(2, "little")
    body += (7).to_bytes(2, "little") + (5).to_bytes(2, "little", signed=True) + bytes([1, 0])
    path = tmp_path / "hand3.wzf"
    path.write_bytes(b"WUZIFEA3" + bytes([5, 144, 4, 0]) + (1).to_bytes(4, "little") + bytes(body))
    rec = features.open_features(path).records
    assert rec["windows"][0, 3].tolist() == [300, 301, 302, 303]
    assert rec["keys"][0, 3].tolist() == [3, 4, 143, 0]
    assert rec["best"][0] == 7 and rec["score"][0] == 5 and rec["result"][0] == 1


def test_layout_by_hand(tmp_path):
    # One 5x5 record written byte by byte as the format says.
    size = 5
    body = bytearray()
    for cell in range(25):
        body += bytes([255] * 4) if cell == 12 else bytes([cell, cell + 1, 143, 0])
    body += (7).to_bytes(2, "little") + (-1234).to_bytes(2, "little", signed=True) + bytes([0xFF, 0])
    path = tmp_path / "hand.wzf"
    path.write_bytes(b"WUZIFEA1" + bytes([5, 144, 4, 0]) + (1).to_bytes(4, "little") + bytes(body))
    rec = features.open_features(path).records
    assert rec["keys"][0, 3].tolist() == [3, 4, 143, 0]
    assert rec["keys"][0, 12].tolist() == [255] * 4
    assert rec["best"][0] == 7 and rec["score"][0] == -1234 and rec["result"][0] == -1
    assert features.stones(rec).tolist() == [1]


def test_empty_file_is_valid(tmp_path):
    path = tmp_path / "empty.wzf"
    path.write_bytes(b"WUZIFEA1" + bytes([15, 144, 4, 0, 0, 0, 0, 0]))
    assert len(features.open_features(path)) == 0


def corrupt(path, offset, value):
    data = bytearray(path.read_bytes())
    data[offset] = value
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "offset,value,message",
    [
        (0, ord("X"), "magic"),
        (8, 3, "board size 3"),
        (8, 9, "bytes, but the header"),
        (9, 100, "key count 100"),
        (10, 8, "8 directions"),
        (12, 51, "cut short"),
        (12, 49, "trailing bytes"),
    ],
)
def test_bad_header(tmp_path, offset, value, message):
    path, _ = write(tmp_path)
    corrupt(path, offset, value)
    with pytest.raises(FeatureFileError, match=message):
        features.open_features(path)


def test_version_2_is_refused(tmp_path):
    # A WUZIFEA2 file as wuzi wrote it before the window nets were dropped: a 20-byte header
    # (the window rows, 7381, after the record count) and each cell's four u16 window rows
    # after the keys. It is refused by its magic, naming the version.
    size, n = 7, 3
    k, b, s, r = synthetic.make_records(n, size, 0)
    rows = np.where(k == 255, 0xFFFF, 0).astype("<u2")
    body = b"".join(
        k[i].tobytes() + rows[i].tobytes()
        + np.array([b[i]], "<u2").tobytes() + np.array([s[i]], "<i2").tobytes()
        + np.array([r[i], 0], "i1").tobytes()
        for i in range(n)
    )
    path = tmp_path / "v2.wzf"
    path.write_bytes(b"WUZIFEA2" + bytes([size, 144, 4, 0]) + n.to_bytes(4, "little")
                     + (7381).to_bytes(4, "little") + body)
    with pytest.raises(FeatureFileError, match=r"magic b'WUZIFEA2', expected b'WUZIFEA3' or b'WUZIFEA1' \(version 2"):
        features.open_features(path)
    with pytest.raises(FeatureFileError, match="window rows"):
        features.load_records([tmp_path])


def test_short_file(tmp_path):
    path = tmp_path / "short.wzf"
    path.write_bytes(b"WUZIFEA1\x0f")
    with pytest.raises(FeatureFileError, match="shorter than the 16-byte header"):
        features.open_features(path)


def test_cut_record(tmp_path):
    path, _ = write(tmp_path)
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(FeatureFileError, match="cut short"):
        features.open_features(path)


def record_offset(size, i):
    return 16 + i * (4 * size * size + 6)


def test_bad_records(tmp_path):
    size = 7
    path, (k, b, s, r) = write(tmp_path, size=size)
    i = 5
    empty = int(np.nonzero(k[i, :, 0] != 255)[0][0])
    stone = int(np.nonzero(k[i, :, 0] == 255)[0][0])
    cases = [
        (record_offset(size, i) + 4 * empty + 2, 144, "record 5: a key outside"),
        (record_offset(size, i) + 4 * stone + 1, 3, "record 5: a cell with some but not all"),
        (record_offset(size, i) + 4 * empty + 3, 255, "record 5: a cell with some but not all"),
        (record_offset(size, i) + 4 * 49 + 4, 2, "record 5: result 2"),
    ]
    for offset, value, message in cases:
        features.write_features(path, size, k, b, s, r)
        corrupt(path, offset, value)
        with pytest.raises(FeatureFileError, match=message):
            features.open_features(path)
        # The header alone is fine without the check of the contents.
        assert len(features.open_features(path, validate=False)) == 50
    for best, message in ((stone, "is an occupied cell"), (49, "off the 7x7 board")):
        b2 = b.copy()
        b2[i] = best
        features.write_features(path, size, k, b2, s, r)
        with pytest.raises(FeatureFileError, match=f"record 5: best move {best} {message}"):
            features.open_features(path)


def test_paths_and_sizes(tmp_path):
    write(tmp_path, name="b.wzf", seed=1)
    write(tmp_path, name="a.wzf", seed=2)
    (tmp_path / "notes.txt").write_text("not data")
    paths = features.feature_paths([tmp_path])
    assert [p.name for p in paths] == ["a.wzf", "b.wzf"]
    size, rec, counts = features.load_records([tmp_path])
    assert size == 7 and len(rec) == 100 and counts == [50, 50]
    write(tmp_path, size=9, name="c.wzf")
    with pytest.raises(FeatureFileError, match="several board sizes"):
        features.load_records([tmp_path])
    with pytest.raises(FeatureFileError, match="no such file"):
        features.feature_paths([tmp_path / "missing.wzf"])
    (tmp_path / "none").mkdir()
    with pytest.raises(FeatureFileError, match="no .wzf file"):
        features.feature_paths([tmp_path / "none"])


def test_game_ids(tmp_path):
    # Stones 2,3,4 | 3,4 | 6 : three games; a second file starts a fourth.
    size = 5
    counts = [2, 3, 4, 3, 4, 6]
    keys = np.zeros((len(counts), 25, 4), dtype=np.uint8)
    for i, c in enumerate(counts):
        keys[i, :c] = 255
    rec = np.zeros(len(counts), dtype=features.record_dtype(size))
    rec["keys"] = keys
    assert features.game_ids(rec).tolist() == [0, 0, 0, 1, 1, 2]
    assert features.game_ids(rec, [2, 4]).tolist() == [0, 0, 1, 2, 2, 3]
