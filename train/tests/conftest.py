import sys
from pathlib import Path

# The tests import the package from train/ whatever the working directory.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
