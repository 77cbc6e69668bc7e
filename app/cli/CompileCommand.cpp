// tilescope-cli compile: one kernel, one specialization, following Triton's AOT signature
// convention ("*fp32,*fp32,*fp32,i32,1024": pointer dtypes, scalar types, constexpr values).
#include <cstdio>
#include <sstream>

#include "app/cli/Commands.h"
#include "app/cli/ConstexprArg.h"
#include "app/cli/ProgramLoader.h"
#include "core/compiled/CompiledView.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/passes/IRDumpObserver.h"
#include "core/kernel/Checker.h"

namespace tilescope::cli {
namespace {
const char* kUsage =
    "usage: tilescope-cli compile FILE --kernel NAME --signature SIG [--arch sm_90] [--emit ir|cuda|ptx|resources|map]\n"
    "                             [--num-warps 4] [--num-stages 3]\n\n"
    "--emit ir prints the checker's IR; --emit ir-after=PASS the IR after that pass of the GPU\n"
    "pipeline (--arch picks the target); --emit passes lists the pipeline's passes in order.\n"
    "--emit map prints, as JSON, the CUDA and PTX lines (and SASS lines, when nvdisasm is installed)\n"
    "that each source line of the kernel became.\n\n"
    "SIG lists the kernel's parameters in order, comma-separated: '*fp16' for a pointer, 'i32'/'fp32'\n"
    "for a scalar, a literal (1024, True, fp16) for a constexpr. Trailing parameters with defaults may\n"
    "be left out. 'i32:16' is an integer that is a multiple of 16, as Triton specializes them.\n"
    "Example: --signature \"*fp32,*fp32,*fp32,i32:16,1024\"\n";

std::vector<std::string> splitSignature(const std::string& sig) {
  std::vector<std::string> parts;
  std::stringstream ss(sig);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    parts.push_back(b == std::string::npos ? "" : item.substr(b, e - b + 1));
  }
  return parts;
}
}  // namespace

int runCompile(const Args& args) {
  std::string path, kernel, signature, arch, emit = "ir", warps = "4", stages = "3";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    // A launch option: one or two digits.
    auto count = [&](std::string& into) {
      return value(into) && !into.empty() && into.size() < 3 && into.find_first_not_of("0123456789") == std::string::npos;
    };
    bool ok = true;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--kernel") ok = value(kernel);
    else if (a == "--signature") ok = value(signature);
    else if (a == "--arch") ok = value(arch);
    else if (a == "--emit") ok = value(emit);
    else if (a == "--num-warps") ok = count(warps);
    else if (a == "--num-stages") ok = count(stages);
    else if (!a.empty() && a[0] == '-') ok = false;
    else if (path.empty()) path = a;
    else ok = false;
    if (!ok) {
      std::fprintf(stderr, "tilescope-cli compile: bad argument '%s'\n\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  if (emit == "passes") {
    // Needs no kernel: the pipeline is the same for every one.
    for (const ir::passes::Pass& p : gpu::passes::gpuPasses())
      std::printf("%.*s: %.*s\n", static_cast<int>(p.name.size()), p.name.data(), static_cast<int>(p.summary.size()),
                  p.summary.data());
    return 0;
  }
  if (path.empty() || kernel.empty() || signature.empty()) {
    std::fprintf(stderr, "tilescope-cli compile: FILE, --kernel and --signature are required\n\n%s", kUsage);
    return 2;
  }
  std::string afterPass;
  if (emit.rfind("ir-after=", 0) == 0) {
    afterPass = emit.substr(std::string("ir-after=").size());
    bool known = false;
    std::string names;
    for (const ir::passes::Pass& p : gpu::passes::gpuPasses()) {
      known |= p.name == afterPass;
      names += (names.empty() ? "" : ", ") + std::string(p.name);
    }
    if (!known) {
      std::fprintf(stderr, "tilescope-cli compile: --emit ir-after= takes a pass of the GPU pipeline: %s (got '%s'; "
                           "--emit passes lists them)\n", names.c_str(), afterPass.c_str());
      return 2;
    }
  } else if (emit != "ir" && emit != "cuda" && emit != "ptx" && emit != "resources" && emit != "map") {
    std::fprintf(stderr, "tilescope-cli compile: --emit takes ir, ir-after=PASS, passes, cuda, ptx, resources or map (got '%s')\n",
                 emit.c_str());
    return 2;
  }
  LoadedProgram loaded = loadProgram(path);
  if (!loaded.program) {
    std::fprintf(stderr, "%s\n", loaded.error.c_str());
    return 1;
  }
  if (loaded.diagnostics.hasErrors()) {
    std::fputs(loaded.diagnostics.render().c_str(), stderr);
    return 1;
  }
  lang::Specialization spec;
  spec.options.numWarps = std::stoi(warps);
  spec.options.numStages = std::stoi(stages);
  for (std::string entry : splitSignature(signature)) {
    if (entry.empty()) {
      std::fprintf(stderr, "tilescope-cli compile: empty entry in --signature \"%s\"\n", signature.c_str());
      return 2;
    }
    const bool multipleOf16 = entry.size() > 3 && entry.compare(entry.size() - 3, 3, ":16") == 0;
    if (multipleOf16) entry.resize(entry.size() - 3);
    if (auto t = ir::parseSignatureType(entry); t && (t->isPointer || entry == ir::dtypeName(t->dtype)))
      spec.args.push_back(t->isPointer ? lang::ArgSpec::pointer(t->dtype) : lang::ArgSpec::scalar(t->dtype, multipleOf16));
    else
      spec.args.push_back(lang::ArgSpec::constexprValue(parseConstexprArg(entry)));
  }
  const lang::CheckResult result = lang::checkKernel(*loaded.program, kernel, spec);
  std::fputs(result.diagnostics.render().c_str(), stderr);
  if (!result.ok()) return 1;
  if (emit == "ir") {
    std::fputs(result.kernel->dump().c_str(), stdout);
    return 0;
  }
  if (arch.empty()) arch = gpu::GpuCompiler::defaultArch();
  if (arch.rfind("sm_", 0) != 0) {
    std::fprintf(stderr, "tilescope-cli compile: --arch takes sm_XX (got '%s')\n", arch.c_str());
    return 2;
  }
  if (emit == "map") {
    compiled::CompileRequest request;
    // The loaded program outlives the request: a view of it, not a copy.
    request.program = std::shared_ptr<const lang::Program>(std::shared_ptr<const lang::Program>(), loaded.program.get());
    request.kernel = kernel;
    request.spec = spec;
    request.arch = arch;
    const compiled::CompileOutcome out = compiled::compileView(request);
    if (!out.view) {
      std::fprintf(stderr, "%s\n", out.error.c_str());
      return 1;
    }
    if (!out.view->ptxMissing.empty()) std::fprintf(stderr, "tilescope-cli compile: %s\n", out.view->ptxMissing.c_str());
    std::printf("%s\n", out.view->mapJson().c_str());
    return 0;
  }
  try {
    if (!afterPass.empty()) {
      ir::passes::IRDumpObserver dump(afterPass);
      gpu::passes::lowerForGpu(*result.kernel, gpu::gpuTargetOf(gpu::GpuCompiler::optionsFor(arch)), &dump);
      std::fputs(dump.dumpAfter(afterPass).value_or("").c_str(), stdout);
      return 0;
    }
    if (emit == "cuda") {
      const gpu::CudaKernelSource src = gpu::CudaCodegen::generate(*result.kernel, gpu::GpuCompiler::optionsFor(arch));
      for (const lang::Diagnostic& w : src.warnings) std::fputs(w.render().c_str(), stderr);
      std::fputs(src.source.c_str(), stdout);
      return 0;
    }
    auto compiled = gpu::GpuCompiler::instance().compile(*result.kernel, arch);
    for (const lang::Diagnostic& w : compiled->cuda.warnings) std::fputs(w.render().c_str(), stderr);
    if (emit == "resources") {
      // What the driver reports for the loaded kernel (cuFuncGetAttribute): needs the GPU itself.
      gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
      if (!rt.available()) {
        std::fprintf(stderr, "tilescope-cli compile: --emit resources loads the kernel on a GPU, and this machine has "
                             "none (%s); `ptxas -v` on the --emit ptx output estimates them without one\n",
                     rt.unavailableReason().c_str());
        return 1;
      }
      const gpu::KernelResources r = rt.resources(*compiled);
      std::printf("%s (%s): %s; %d threads per program, %s\n", kernel.c_str(), compiled->arch.c_str(), r.str().c_str(),
                  compiled->cuda.numThreads, r.localBytes > 0 ? "spills or a stack in local memory" : "no local memory");
      return 0;
    }
    std::fputs(compiled->ptx.c_str(), stdout);
    return 0;
  } catch (const lang::CompileError& e) {
    std::fputs(e.diagnostic().render().c_str(), stderr);
    return 1;
  } catch (const lang::InternalError& e) {
    std::fprintf(stderr, "tilescope-cli compile: internal error: %s\n", e.what());
    return 3;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "tilescope-cli compile: --emit %s needs NVRTC: %s\n", emit.c_str(), e.what());
    return 1;
  }
}

}  // namespace tilescope::cli
