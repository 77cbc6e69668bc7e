#pragma once
// JSON export of a trace for tools and the UI's web views:
// {
//   "format": "tilescope-trace", "version": 1, "kernel": "add_kernel", "grid": [3, 1, 1],
//   "totalPrograms": 3, "droppedPrograms": 0, "policy": "...", "pidFilter": "",
//   "tensors": [{"id": 1, "name": "x", "dtype": "fp32", "shape": [6]}],
//   "args": [{"name": "x_ptr", "tensor": 1}, {"name": "n", "dtype": "i32", "value": "6"}],
//   "programs": [{"pid": [0, 0, 0], "linearId": 0, "truncated": false, "events": [
//      {"kind": "load", "loc": "k.py:7:9", "line": 7, "col": 9, "arg": "x_ptr", "tensor": 1,
//       "tensorShape": [6], "shape": [4], "offsets": [0, 1, 2, 3], "mask": [true, true, true, true],
//       "values": {...tile...}},
//      {"kind": "bind", "loc": "...", "name": "offs", "value": {...tile...}},
//      {"kind": "print", "loc": "...", "text": "pid (0, 0, 0) ..."}]}]
// }
// A tile is {"dtype": "fp32", "shape": [4], "data": [...]} (row-major; floats that are not finite
// are the strings "nan", "inf", "-inf"); pointer tiles add "pointer": true and give
// "tensors": [...] and "offsets": [...] (element offsets) instead of "data".
#include <nlohmann/json.hpp>

#include "core/sim/Trace.h"

namespace tilescope::sim {

nlohmann::json tileToJson(const Tile& t);
nlohmann::json traceToJson(const LaunchTrace& trace);

}  // namespace tilescope::sim
