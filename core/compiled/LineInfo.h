#pragma once
// Reading the line information that each stage of the compiler leaves in its text: `#line`
// directives in the generated CUDA C++, `loc(...)` in the IR printed with locations, `.loc` in
// NVRTC's PTX (-lineinfo) and nvdisasm's `//## File ..., line N` comments in SASS.
//
// The generator writes one `#line N "file"` before each statement, and to the C++ compiler the lines
// after it are N, N+1, ...: a statement spanning 30 CUDA lines would claim 30 source lines in the
// PTX. So the view compiles the CUDA with its directives blanked out (withoutLineDirectives, same
// line numbers): `.loc` then names CUDA lines, and the directives say which source line each CUDA
// line belongs to.
#include <string>
#include <vector>

#include "core/compiled/SourceLineMap.h"

namespace tilescope::compiled {

// The source line of each CUDA line: the statement whose `#line` section it is in (the prelude, before
// the first directive, and the directives themselves have none).
std::vector<SourceLine> cudaSourceLines(const std::string& cuda);
// The CUDA with every `#line` directive replaced by an empty line.
std::string withoutLineDirectives(const std::string& cuda);

// The CUDA line (1-based; 0 for none) of each PTX line: instructions after a `.loc` of the file
// whose name ends with `cudaFileName` take its line; a `.loc` in an inlined helper whose own line
// maps to nothing counts at the line it was inlined at when `sourceOfCuda` knows that one.
std::vector<int> ptxCudaLines(const std::string& ptx, const std::string& cudaFileName,
                              const std::vector<SourceLine>& sourceOfCuda);
// The same for nvdisasm's output with line information (`nvdisasm -gi`).
std::vector<int> sassCudaLines(const std::string& sass, const std::string& cudaFileName,
                               const std::vector<SourceLine>& sourceOfCuda);
// Source lines of pane lines through their CUDA lines.
std::vector<SourceLine> throughCuda(const std::vector<int>& cudaLines, const std::vector<SourceLine>& sourceOfCuda);

// IR printed with IRPrinter::Options::locations: removes each line's `  loc("file":L:C)` from `text`
// and returns the source line of each line.
std::vector<SourceLine> takeIrLocations(std::string& text);

// Lines of a text (without their newlines; a final newline starts no extra line).
std::vector<std::string> splitLines(const std::string& text);

}  // namespace tilescope::compiled
