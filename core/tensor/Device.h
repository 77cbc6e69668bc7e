#pragma once
// Where a tensor says it lives. "cuda" is accepted and recorded on every machine (the simulator and the
// GPU backend both read host memory through the same Storage), so a notebook written for a GPU runs
// unchanged without one; printing shows device='cuda:0' exactly like torch.
#include <cstdint>
#include <string>
#include <string_view>

namespace tilescope::host {

class Device {
 public:
  enum class Type : uint8_t { CPU, CUDA };

  Device() = default;
  explicit Device(Type type, int index = 0) : type_(type), index_(type == Type::CPU ? -1 : index) {}

  // "cpu", "cuda", "cuda:1"; throws TensorError for anything else (torch's wording).
  static Device parse(std::string_view text);

  Type type() const { return type_; }
  int index() const { return index_; }
  bool isCuda() const { return type_ == Type::CUDA; }
  bool isCpu() const { return type_ == Type::CPU; }

  // str(tensor.device): "cpu" or "cuda:0".
  std::string str() const;

  bool operator==(const Device&) const = default;

 private:
  Type type_ = Type::CPU;
  int index_ = -1;
};

}  // namespace tilescope::host
