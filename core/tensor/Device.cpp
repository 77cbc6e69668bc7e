#include "core/tensor/Device.h"

#include <charconv>

#include "core/tensor/TensorError.h"

namespace tilescope::host {

Device Device::parse(std::string_view text) {
  if (text == "cpu") return Device();
  if (text == "cuda") return Device(Type::CUDA, 0);
  if (text.substr(0, 5) == "cuda:" && text.size() > 5) {
    int index = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + 5, text.data() + text.size(), index);
    if (ec == std::errc() && ptr == text.data() + text.size() && index >= 0) return Device(Type::CUDA, index);
  }
  throw TensorError("Expected one of cpu, cuda device type at start of device string: " + std::string(text));
}

std::string Device::str() const {
  if (type_ == Type::CPU) return "cpu";
  return "cuda:" + std::to_string(index_);
}

}  // namespace tilescope::host
