#include "core/compiled/CompiledView.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "core/compiled/LineInfo.h"
#include "core/compiled/NvrtcViewCache.h"
#include "core/compiled/Signature.h"
#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/ir/IRPrinter.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::compiled {
namespace {

constexpr int kSteps = 6;  // check, passes, CUDA, NVRTC, SASS, driver

// Keeps the IR after each pass, printed with source locations.
class LocatedIrObserver : public ir::passes::PipelineObserver {
public:
  explicit LocatedIrObserver(std::vector<IrStage>& stages) : stages_(stages) {}
  void afterPass(std::string_view passName, const ir::Kernel& kernel) override {
    IrStage s;
    s.name = std::string(passName);
    s.text = ir::IRPrinter({true}).print(kernel);
    s.lines = takeIrLocations(s.text);
    stages_.push_back(std::move(s));
  }

private:
  std::vector<IrStage>& stages_;
};

// The number before `unit` in ptxas's report ("Used 38 registers"), or `missing`.
int numberBefore(const std::string& log, const std::string& unit, int missing) {
  const size_t at = log.find(unit);
  if (at == std::string::npos) return missing;
  size_t begin = at;
  while (begin > 0 && log[begin - 1] == ' ') --begin;
  size_t digits = begin;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(log[digits - 1]))) --digits;
  return digits < begin ? std::stoi(log.substr(digits, begin - digits)) : missing;
}

std::string realArchOf(const std::string& arch) {
  return arch.rfind("compute_", 0) == 0 ? "sm_" + arch.substr(8) : arch;
}

}  // namespace

std::map<std::string, int> tensorCoreInstructions(const std::string& ptx) {
  std::map<std::string, int> out;
  for (const std::string& raw : splitLines(ptx)) {
    size_t b = raw.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    if (raw[b] == '@') {  // a predicate: "@%p1 wmma..."
      b = raw.find_first_of(" \t", b);
      if (b == std::string::npos) continue;
      b = raw.find_first_not_of(" \t", b);
      if (b == std::string::npos) continue;
    }
    const size_t e = raw.find_first_of(" \t;", b);
    const std::string op = raw.substr(b, e == std::string::npos ? std::string::npos : e - b);
    for (const char* family : {"wmma.", "mma.", "wgmma.", "ldmatrix.", "stmatrix."})
      if (op.rfind(family, 0) == 0) {
        ++out[op];
        break;
      }
  }
  return out;
}

void disassembleInto(CompiledView& view) {
  if (view.cubin.empty()) {
    if (view.sassMissing.empty()) view.sassMissing = "no SASS: there is no device binary (" + view.ptxMissing + ")";
    return;
  }
  std::string why;
  const SassDisassembler& disassembler = SassDisassembler::instance();
  // A cached listing counts only while its tool is still the one found (nvdisasm has line information).
  const auto cached = disassembler.available() ? NvrtcViewCache::instance().findSass(view.cacheKey) : std::nullopt;
  if (cached && cached->first == disassembler.tool()) {
    view.sass = SassListing{cached->second, cached->first, cached->first == "nvdisasm"};
  } else {
    view.sass = disassembler.disassemble(view.cubin, &why);
    if (view.sass) NvrtcViewCache::instance().storeSass(view.cacheKey, view.sass->tool, view.sass->text);
  }
  if (!view.sass) {
    view.sassMissing = why;
    return;
  }
  view.sassMissing.clear();
  if (view.sass->hasLineInfo) {
    const std::vector<SourceLine> cudaLines = cudaSourceLines(view.cuda);
    view.map.setPane(Pane::Sass, throughCuda(sassCudaLines(view.sass->text, view.kernel + ".cu", cudaLines), cudaLines));
  }
}

void clearCompiledViewMemoryCache() { NvrtcViewCache::instance().clearMemory(); }

std::string CompiledView::mapJson() const {
  nlohmann::json j = map.toJson();
  j["kernel"] = kernel;
  j["arch"] = arch;
  j["signature"] = signature;
  j["num_warps"] = numWarps;
  j["num_stages"] = numStages;
  j["sass"] = sass ? nlohmann::json(sass->tool) : nlohmann::json(sassMissing);
  // The texts the line numbers count in: the PTX is the view's own (LineInfo.h), whose lines differ
  // from `--emit ptx` in its .loc and .file directives.
  nlohmann::json panes = {{"cuda", splitLines(cuda)}, {"ptx", splitLines(ptx)}};
  if (sass && sass->hasLineInfo) panes["sass"] = splitLines(sass->text);
  j["panes"] = std::move(panes);
  return j.dump(1);
}

CompileOutcome compileView(const CompileRequest& request, const CompileProgress& progress) {
  auto step = [&](const char* what, int done) {
    if (progress) progress(what, done, kSteps);
  };
  CompileOutcome outcome;
  if (!request.program) {
    outcome.error = "no program to compile";
    return outcome;
  }
  const lang::JitFunctionInfo* fn = request.program->findJitFunction(request.kernel);
  if (!fn || !fn->def) {
    outcome.error = "no @triton.jit function named '" + request.kernel + "' in this notebook: run the cell that defines it";
    return outcome;
  }
  step("checking", 0);
  const lang::CheckResult checked = lang::checkKernel(*request.program, *fn, request.spec);
  if (!checked.ok()) {
    outcome.error = checked.diagnostics.render();
    return outcome;
  }
  auto view = std::make_shared<CompiledView>();
  view->kernel = request.kernel;
  view->arch = request.arch.empty() ? gpu::GpuCompiler::defaultArch() : request.arch;
  view->signature = formatSignature(request.spec);
  view->numWarps = request.spec.options.numWarps;
  view->numStages = request.spec.options.numStages;
  for (const lang::Diagnostic& d : checked.diagnostics.items()) view->warnings.push_back(d.render());

  // The definition's whole lines.
  const lang::SourceRange& range = fn->def->range;
  if (range.file) {
    view->sourceFile = range.file->name();
    const int first = range.start().line;
    const int last = range.file->lineColumn(range.end > range.begin ? range.end - 1 : range.end).line;
    view->sourceFirstLine = first;
    for (int l = first; l <= last; ++l) {
      view->source += std::string(range.file->lineText(l));
      view->source += '\n';
    }
  }

  step("running the passes", 1);
  IrStage initial;
  initial.name = "checker";
  initial.text = ir::IRPrinter({true}).print(*checked.kernel);
  initial.lines = takeIrLocations(initial.text);
  view->ir.push_back(std::move(initial));
  const gpu::CudaCodegenOptions options = gpu::GpuCompiler::optionsFor(view->arch);
  try {
    LocatedIrObserver observer(view->ir);
    gpu::passes::lowerForGpu(*checked.kernel, gpu::gpuTargetOf(options), &observer);
    step("generating CUDA C++", 2);
    const gpu::CudaKernelSource cuda = gpu::CudaCodegen::generate(*checked.kernel, options);
    view->cuda = cuda.source;
    view->threads = cuda.numThreads;
    for (const lang::Diagnostic& w : cuda.warnings) view->warnings.push_back(w.render());
    const std::vector<SourceLine> cudaLines = cudaSourceLines(view->cuda);
    view->map.setPane(Pane::Cuda, cudaLines);

    step("compiling to PTX (NVRTC)", 3);
    const gpu::Nvrtc& nvrtc = gpu::Nvrtc::instance();
    const std::string cudaName = request.kernel + ".cu";
    ResourceFigures ptxas;
    ptxas.from = "ptxas";
    ptxas.dynamicSharedBytes = static_cast<int>(cuda.dynamicSharedBytes);
    if (!nvrtc.available()) {
      view->ptxMissing = "no PTX: NVRTC is not available (" + nvrtc.unavailableReason() + ")";
      view->sassMissing = "no SASS: it is assembled from the PTX, and NVRTC is not available";
    } else {
      const std::string realArch = realArchOf(view->arch);
      std::vector<std::string> nvrtcOptions = gpu::GpuCompiler::nvrtcOptions();
      nvrtcOptions.push_back("-Xptxas=-v");
      const std::string text = withoutLineDirectives(view->cuda);
      const std::string key = NvrtcViewCache::keyOf(text, realArch, nvrtcOptions);
      std::shared_ptr<const NvrtcViewOutput> out = NvrtcViewCache::instance().find(key, &view->cacheHit);
      if (!out) {
        const gpu::NvrtcOutput r = nvrtc.compileToCubin(text, cudaName, realArch, nvrtcOptions);
        if (!r.ok)
          throw lang::InternalError("the CUDA C++ generated for kernel '" + request.kernel + "' does not compile (" +
                                    r.error + "); this is a tilescope bug. NVRTC said:\n" + r.log.substr(0, 4000));
        out = std::make_shared<NvrtcViewOutput>(NvrtcViewOutput{r.ptx, r.cubin, r.log});
        NvrtcViewCache::instance().store(key, out);
      }
      view->ptx = out->ptx;
      view->map.setPane(Pane::Ptx, throughCuda(ptxCudaLines(view->ptx, cudaName, cudaLines), cudaLines));
      view->tensorCoreInstructions = tensorCoreInstructions(view->ptx);
      // ptxas info    : Used 72 registers, used 0 barriers, 128 bytes smem
      // ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
      ptxas.registers = numberBefore(out->log, " registers", 0);
      ptxas.staticSharedBytes = numberBefore(out->log, " bytes smem", 0);
      ptxas.localBytes = numberBefore(out->log, " bytes stack frame", 0);
      ptxas.spillStoreBytes = numberBefore(out->log, " bytes spill stores", -1);
      ptxas.spillLoadBytes = numberBefore(out->log, " bytes spill loads", -1);
      ptxas.occupancy = occupancyFor(smLimitsFor(view->arch), view->threads, ptxas.registers,
                                     ptxas.staticSharedBytes + ptxas.dynamicSharedBytes);
      view->resources.push_back(ptxas);

      view->cacheKey = key;
      view->cubin = out->cubin;
      if (request.disassemble) {
        step("disassembling SASS", 4);
        disassembleInto(*view);
      }
    }

    if (request.driverResources) {
      step("loading on the GPU", 5);
      gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
      if (!rt.available()) {
        view->driverMissing = "no driver figures: " + rt.unavailableReason();
      } else {
        const auto compiled = gpu::GpuCompiler::instance().compile(*checked.kernel, view->arch);
        const gpu::KernelResources r = rt.resources(*compiled);
        ResourceFigures driver;
        driver.from = "driver";
        driver.registers = r.registers;
        driver.localBytes = r.localBytes;
        driver.staticSharedBytes = r.staticSharedBytes;
        driver.dynamicSharedBytes = r.dynamicSharedBytes;
        driver.occupancy = occupancyFor(smLimitsFor(compiled->arch), view->threads, r.registers,
                                        r.staticSharedBytes + r.dynamicSharedBytes);
        view->resources.push_back(driver);
      }
    }
  } catch (const lang::CompileError& e) {
    outcome.error = e.diagnostic().render();
    return outcome;
  } catch (const lang::InternalError& e) {
    outcome.error = std::string("internal error (a tilescope bug, please report it): ") + e.what();
    return outcome;
  } catch (const std::exception& e) {
    outcome.error = e.what();
    return outcome;
  }
  step("done", kSteps);
  outcome.view = std::move(view);
  return outcome;
}

}  // namespace tilescope::compiled
