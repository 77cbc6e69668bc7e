from dataclasses import dataclass
from functools import partial


@dataclass
class Launch:
    grid: tuple
    block: int = 128
    warps: int = 4

    def programs(self) -> int:
        total = 1
        for g in self.grid:
            total *= g
        return total


class Timer:
    def __enter__(self):
        self.ticks = 0
        return self

    def __exit__(self, *exc):
        return False


def pick(sizes, *, limit=1 << 16, **extra):
    chosen = [s for s in sizes if s <= limit and s & (s - 1) == 0]
    return chosen[-1] if chosen else None


with Timer() as t:
    try:
        best = pick([32, 64, 100, 256], limit=200)
    except (ValueError, TypeError) as err:
        best = None
        raise RuntimeError("no size") from err
    finally:
        t.ticks += 1

small = partial(pick, limit=64)
labels = {n: f"{n:>5d}|{n / 3:8.2f}|{n!r}" for n in range(4)}
nested = [[r * c for c in range(3)] for r in range(2) if r or not c]
assert Launch((2, 3)).programs() == 6
print(*sorted(labels.items(), key=lambda kv: -kv[0]), sep='\n')
