# The rules modules load from their compiled build when one matches their source.
from games.speedups import install

install()
