#include "core/sim/OrderedOutput.h"

namespace tilescope::sim {

void OrderedOutput::emit(std::vector<std::string>& lines) {
  for (std::string& l : lines) {
    if (sink_) sink_(l);
    collected_ += l;
    collected_ += '\n';
  }
}

void OrderedOutput::complete(int64_t linearId, std::vector<std::string> lines) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (linearId > last_) return;
  if (linearId != next_) {
    pending_.emplace(linearId, std::move(lines));
    return;
  }
  emit(lines);
  ++next_;
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_; it = pending_.erase(it)) {
    if (it->first > last_) break;
    emit(it->second);
    ++next_;
  }
}

void OrderedOutput::limit(int64_t last) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (last < last_) last_ = last;
}

void OrderedOutput::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [id, lines] : pending_)
    if (id <= last_) emit(lines);
  pending_.clear();
}

}  // namespace tilescope::sim
