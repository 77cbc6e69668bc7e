#include "core/python/PythonKernel.h"

#include <algorithm>

#include "core/python/CompiledKernelObject.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/Containers.h"
#include "core/python/Function.h"
#include "core/python/KernelLauncher.h"
#include "core/python/PyError.h"
#include "core/kernel/Checker.h"
#include "core/syntax/Parser.h"
#include "core/kernel/Program.h"
#include "core/python/EngineSession.h"

namespace tilescope::python {

namespace {

std::vector<bool> flagsFor(const lang::FunctionDef& def, const std::vector<std::string>& names) {
  std::vector<bool> flags;
  for (const lang::Param& p : def.params.params)
    flags.push_back(std::find(names.begin(), names.end(), p.name) != names.end());
  return flags;
}

}  // namespace

PythonKernel::PythonKernel(const std::string& name, const std::string& source, const std::string& file, int firstLine,
                           const std::vector<std::string>& doNotSpecialize,
                           const std::vector<std::string>& doNotSpecializeOnAlignment) {
  lang::ParseResult parsed = lang::parseModule(std::make_shared<lang::SourceFile>(file, source, firstLine));
  if (!parsed.ok()) {
    host::PyError err("CompilationError", "kernel '" + name + "' uses Python the kernel language does not have");
    err.setDiagnostics(parsed.diagnostics);
    throw err;
  }
  module_ = std::shared_ptr<const lang::Module>(std::move(parsed.module));
  const lang::FunctionDef* def = nullptr;
  for (const lang::StmtPtr& s : module_->body)
    if (const auto* f = s->as<lang::FunctionDef>(); f && f->name == name) def = f;
  if (!def) {
    throw host::PyError("CompilationError", "@triton.jit: the source of '" + name + "' (" + file +
                                                ") holds no top-level def of that name; define kernels at the top level");
  }
  auto fn = std::make_shared<host::FunctionObject>();
  fn->name = name;
  fn->def = def;
  fn->module = module_;
  std::vector<host::ParamSpec> params;
  for (const lang::Param& p : def->params.params) params.push_back(host::ParamSpec{p.name, host::ParamSpec::Kind::Normal, {}});
  fn->signature = host::Signature(name, std::move(params));
  jit_ = std::make_shared<host::JitFunction>();
  jit_->fn = fn;
  for (const lang::Param& p : def->params.params) jit_->isConstexpr.push_back(lang::isConstexprParam(p));
  jit_->doNotSpecialize = flagsFor(*def, doNotSpecialize);
  jit_->doNotSpecializeOnAlignment = flagsFor(*def, doNotSpecializeOnAlignment);
}

std::vector<std::string> PythonKernel::parameterNames() const {
  std::vector<std::string> names;
  for (const lang::Param& p : jit_->fn->def->params.params) names.push_back(p.name);
  return names;
}

void PythonKernel::setGlobals(const std::vector<std::pair<std::string, lang::Value>>& globals,
                              const std::vector<std::shared_ptr<PythonKernel>>& helpers) {
  auto program = std::make_shared<lang::Program>();
  for (const auto& [name, value] : globals) program->defineGlobal(name, value);
  for (const std::shared_ptr<PythonKernel>& helper : helpers)
    if (helper.get() != this) program->addModule(helper->module_);
  program->addModule(module_);
  jit_->program = std::move(program);
  jit_->cache.reset();  // checked against other globals
  fast_.clear();
}

namespace {

host::LaunchContext& launchContext(const std::string& kernel) {
  EngineSession* session = EngineSession::active();
  if (!session) throw host::PyError("RuntimeError", "kernel '" + kernel + "' launched while no tilescope session runs code");
  return session->launchContext();
}

}  // namespace

host::PreparedLaunch PythonKernel::launch(const host::Value& grid, host::ValueList args,
                                         std::vector<std::pair<std::string, host::Value>> options) {
  host::LaunchContext& context = launchContext(name());
  for (const auto& [n, fn] : hostFunctions_) context.setHostFunction(n, fn);
  host::CallArgs call(std::move(args));
  call.keywords = std::move(options);
  host::PreparedLaunch prepared = host::KernelLauncher::prepare(context, *jit_, grid, call);
  host::KernelLauncher::run(context, *jit_, prepared);
  return prepared;
}

std::shared_ptr<PythonKernel::FastLaunch> PythonKernel::fastLaunch(const std::string& key) {
  auto it = fast_.find(key);
  return it == fast_.end() ? nullptr : it->second;
}

void PythonKernel::remember(const std::string& key, host::PreparedLaunch prepared, bool foreign) {
  if (fast_.size() >= 64) return;  // a kernel launched with ever new constexprs: the general path then
  const std::vector<std::string> names = parameterNames();
  auto entry = std::make_shared<FastLaunch>();
  for (const std::string& runtime : prepared.runtimeNames) {
    const auto at = std::find(names.begin(), names.end(), runtime);
    if (at == names.end()) return;  // cannot happen: prepare found it in the signature
    entry->runtimeParams.push_back(static_cast<size_t>(at - names.begin()));
  }
  prepared.checkSeconds = 0;
  entry->prepared = std::move(prepared);
  entry->foreign = foreign;
  fast_[key] = std::move(entry);
}

void PythonKernel::runPrepared(const host::PreparedLaunch& prepared) {
  host::LaunchContext& context = launchContext(name());
  for (const auto& [n, fn] : hostFunctions_) context.setHostFunction(n, fn);
  host::KernelLauncher::run(context, *jit_, prepared);
}

void PythonKernel::check(const host::Value& grid, host::ValueList args,
                         std::vector<std::pair<std::string, host::Value>> options) {
  host::CallArgs call(std::move(args));
  call.keywords = std::move(options);
  host::KernelLauncher::prepare(launchContext(name()), *jit_, grid, call);
}

host::Value PythonKernel::warmup(const host::Value& grid, host::ValueList args,
                                 std::vector<std::pair<std::string, host::Value>> options) {
  host::LaunchContext& context = launchContext(name());
  for (const auto& [n, fn] : hostFunctions_) context.setHostFunction(n, fn);
  host::CallArgs call(std::move(args));
  call.keywords = std::move(options);
  call.keywords.emplace_back("grid", grid);
  return host::CompiledKernelObject::warmUp(context, jit_, std::move(call));
}

host::Value PythonKernel::compiledAttribute(const host::Value& compiled, const std::string& attribute) {
  host::LaunchContext& context = launchContext("compiled kernel");
  return context.getAttr(compiled, attribute);
}

void PythonKernel::launchCompiled(const host::Value& compiled, const host::Value& grid, host::ValueList args) {
  host::LaunchContext& context = launchContext(name());
  for (const auto& [n, fn] : hostFunctions_) context.setHostFunction(n, fn);
  const host::Value launcher = context.getItem(compiled, grid);
  host::CallArgs call(std::move(args));
  context.call(launcher, call);
}

void PythonKernel::prefetchRedefined(const std::function<void()>& resolveGlobals) {
  EngineSession* session = EngineSession::active();
  if (!session || !host::resolvesToGpu(session->launchSettings().backend)) return;
  resolveGlobals();
  host::KernelLauncher::prefetchRedefined(session->launchContext(), *jit_);
}

std::vector<std::pair<std::string, std::string>> PythonKernel::cachedSpecializations() const {
  std::vector<std::pair<std::string, std::string>> out;
  host::LaunchContext& context = launchContext(name());
  // KernelLauncher's kernel.cache: {device: {key: description}}; here device 0's entries.
  const host::Value summary = host::KernelLauncher::cacheSummary(context, *jit_);
  for (const auto& [device, perDevice] : summary.as<host::DictObject>()->entries())
    for (const auto& [key, value] : perDevice.as<host::DictObject>()->entries())
      out.emplace_back(context.str(key), context.str(value));
  return out;
}

}  // namespace tilescope::python
