from . import sibling
from ..pkg.mod import (a as b, c,)
from m import *
import a.b.c as d, e
global_counter = 0

@dataclass(frozen=True)
class Config(Base, metaclass=Meta):
    """Docstring."""
    size: int = 3
    def method(self, /, x, *, y=2, **kw) -> "Config":
        global global_counter
        def inner():
            nonlocal x
            x = yield x
            yield from range(3)
        try:
            with open(p) as f, lock:
                data = [line.strip() for line in f if line if not line.startswith("#")]
        except (IOError, ValueError) as err:
            raise RuntimeError("bad") from err
        except Exception:
            raise
        else:
            pass
        finally:
            del data
        while x > 0:
            x -= 1
            if x == 3: break
        else:
            x = None
        for i, (j, *k) in enumerate(pairs):
            continue
        return {k: v for k, v in kw.items()}, {s for s in kw}, (g for g in kw), lambda *a, **k: (a, k)

if __name__ == "__main__":
    first, *rest = [1, 2, 3]; a = b = c = 0
    kernel[grid](x, z, group_sz=3);
    assert a is not None and b not in rest, f"bad {a}"
    value = a if b else c if d else e
    print(*rest, sep=", ", **opts)
