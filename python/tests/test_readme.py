"""The README's Python example and the farm example script run as written."""

import os
import re
import subprocess
import sys

import numpy as np
from PIL import Image


def readme_example(repo):
    text = (repo / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_example_saves_a_plot(repo, tmp_path):
    code = readme_example(repo)
    assert len(code.strip().splitlines()) == 5
    (tmp_path / "graphs").symlink_to(repo / "graphs")
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, env={**os.environ, "MPLBACKEND": "Agg"})
    image = np.asarray(Image.open(tmp_path / "planet.png"))
    assert image.shape[:2] == (512, 1024)
    assert len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 100, "a planet, not a flat picture"


def test_farm_example_builds_planets(repo, tmp_path):
    script = repo / "python" / "examples" / "farm_example.py"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    run = subprocess.run([sys.executable, str(script), str(repo / "python" / "tests" / "data" / "exports.ron"), str(tmp_path / "out"), "--count", "2", "--resolution", "16"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    for i in range(2):
        assert (tmp_path / "out" / f"{i:03d}" / "manifest.json").exists()
    assert "2/2 planets" in run.stderr
