#include "core/base/WorkerRequest.h"

namespace tilescope::host {
using nlohmann::json;

namespace {

WorkerRequest invalid(std::string error) {
  WorkerRequest r;
  r.error = std::move(error);
  return r;
}

// A short, safe rendering of a wrong value for an error message.
std::string shown(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string(value.type_name()) + " " + text;
}

// The string field `name`, `fallback` when absent; an error message when it has another type.
std::optional<std::string> stringField(const json& message, const char* name, const char* fallback, bool required,
                                       const char* meaning, std::string& error) {
  const auto it = message.find(name);
  if (it == message.end()) {
    if (required) error = std::string("execute_request needs \"") + name + "\": " + meaning;
    else return std::string(fallback);
    return std::nullopt;
  }
  if (!it->is_string()) {
    error = std::string("execute_request field \"") + name + "\" must be a string (" + meaning + "), not " + shown(*it);
    return std::nullopt;
  }
  return it->get<std::string>();
}

WorkerRequest decodeExecute(const json& message) {
  std::string error;
  const auto id = stringField(message, "id", "", false, "the client's name for the request", error);
  if (!id) return invalid(error);
  WorkerRequest rejected = invalid("");
  rejected.rejectedId = *id;
  auto reject = [&](std::string why) {
    rejected.error = std::move(why);
    return rejected;
  };
  const auto cellId = stringField(message, "cell_id", "", false, "the id of the notebook cell", error);
  if (!cellId) return reject(error);
  rejected.rejectedCellId = *cellId;
  const auto code = stringField(message, "code", "", true, "the cell's source text", error);
  if (!code) return reject(error);
  const auto backendName = stringField(message, "backend", "auto", false, "simulator, gpu or auto", error);
  if (!backendName) return reject(error);
  const std::optional<Backend> backend = parseBackend(*backendName);
  if (!backend) return reject("unknown backend \"" + *backendName + "\" in execute_request: use simulator, gpu or auto");
  const auto policy = stringField(message, "out_of_bounds", "stop", false, "stop or warn", error);
  if (!policy) return reject(error);
  if (*policy != "stop" && *policy != "warn")
    return reject("unknown out_of_bounds policy \"" + *policy + "\" in execute_request: use stop or warn");

  // Optional flags: absent is false; anything but a boolean is refused.
  auto flag = [&](const char* name, const char* meaning, bool& out) {
    const auto it = message.find(name);
    if (it == message.end()) return true;
    if (!it->is_boolean()) {
      error = std::string("execute_request field \"") + name + "\" must be true or false (" + meaning + "), not " + shown(*it);
      return false;
    }
    out = it->get<bool>();
    return true;
  };
  bool gpuOnly = false;
  if (!flag("gpu_only", "whether the cell is tagged gpu-only", gpuOnly)) return reject(error);
  bool inspect = false;
  if (!flag("inspect", "whether to report kernel launches with their traces", inspect)) return reject(error);
  bool programTiming = false;
  if (!flag("program_timing", "whether GPU launches record and send each program's SM and times", programTiming))
    return reject(error);

  // Optional: a list of at most kMaxTracePids programs, each three non-negative integers.
  std::vector<std::array<int64_t, 3>> tracePids;
  if (const auto it = message.find("trace_pids"); it != message.end()) {
    const std::string expected = "a list of at most " + std::to_string(kMaxTracePids) +
                                 " programs to trace, each [pid_0, pid_1, pid_2] of non-negative integers";
    if (!it->is_array() || it->size() > kMaxTracePids)
      return reject("execute_request field \"trace_pids\" must be " + expected + ", not " + shown(*it));
    for (const json& pid : *it) {
      bool good = pid.is_array() && pid.size() == 3;
      for (size_t d = 0; good && d < 3; ++d) good = pid[d].is_number_integer() && pid[d].get<int64_t>() >= 0;
      if (!good) return reject("execute_request field \"trace_pids\" must be " + expected + "; " + shown(pid) + " is not");
      tracePids.push_back({pid[0].get<int64_t>(), pid[1].get<int64_t>(), pid[2].get<int64_t>()});
    }
  }

  WorkerRequest r;
  r.kind = WorkerRequest::Kind::Execute;
  r.execute = ExecuteRequest{*id, *cellId, *code, *backend, *policy == "stop", gpuOnly, inspect, std::move(tracePids),
                             programTiming};
  return r;
}

}  // namespace

WorkerRequest decodeWorkerRequest(const json& message) {
  if (!message.is_object()) return invalid("a message must be a JSON object, not " + shown(message));
  const auto type = message.find("type");
  if (type == message.end() || !type->is_string())
    return invalid("a message needs a string \"type\" (execute_request, interrupt_request or shutdown_request), got " +
                   (type == message.end() ? std::string("none") : shown(*type)));
  const std::string& name = type->get_ref<const std::string&>();
  if (name == "execute_request") return decodeExecute(message);
  WorkerRequest r;
  if (name == "interrupt_request") r.kind = WorkerRequest::Kind::Interrupt;
  else if (name == "shutdown_request") r.kind = WorkerRequest::Kind::Shutdown;
  else if (name == "device_request") r.kind = WorkerRequest::Kind::DeviceReport;
  else r.error = "unknown message type '" + name + "' (the worker understands execute_request, interrupt_request, shutdown_request and device_request)";
  return r;
}

}  // namespace tilescope::host
