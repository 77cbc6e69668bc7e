#pragma once
// A stable, indented text dump of the syntax tree: one node per line with its kind, the details
// that identify it and `@line:col` of its start. Golden tests compare it and the UI's "AST" view
// shows it, so the format changes only on purpose.
//
//   FunctionDef add_kernel @4:1
//     decorator: Attribute .jit @3:2
//       value: Name triton @3:2
//     Param x_ptr @4:16
//     body:
//       Assign @5:5
//         target: Name pid (store) @5:5
//         value: Call @5:11
#include <string>

#include "core/syntax/Ast.h"

namespace tilescope::lang {

class AstPrinter {
public:
  // The dump of `node` and everything below it, each line ending in '\n'.
  static std::string print(const Node& node);
};

inline std::string printAst(const Node& node) { return AstPrinter::print(node); }

}  // namespace tilescope::lang
