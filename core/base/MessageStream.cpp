#include "core/base/MessageStream.h"

namespace tilescope::util {
using nlohmann::json;

namespace {
struct TooDeep {};  // thrown out of the parser callback to stop at the first level too many
}  // namespace

std::optional<json> parseJsonWithDepthLimit(std::string_view text, int maxDepth, std::string& error) {
  try {
    json::parser_callback_t limit = [maxDepth](int depth, json::parse_event_t event, json&) {
      if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) && depth >= maxDepth)
        throw TooDeep{};
      return true;
    };
    return json::parse(text, limit);
  } catch (const TooDeep&) {
    error = "the JSON nests deeper than " + std::to_string(maxDepth) + " levels";
  } catch (const json::exception& e) {
    error = std::string("not valid JSON: ") + e.what();
  }
  return std::nullopt;
}

bool MessageStream::fail(std::string why) {
  error_ = std::move(why);
  pending_.reset();
  return false;
}

std::optional<Message> MessageStream::next() {
  while (!failed()) {
    if (pending_ && pending_->blobs.size() == blobsAnnounced_) return std::exchange(pending_, std::nullopt);
    std::optional<Frame> frame = frames_.next();
    if (!frame) {
      if (frames_.failed()) fail(frames_.error());
      return std::nullopt;
    }
    if (pending_) {
      if (frame->kind != FrameKind::Blob) {
        fail("a message announced " + std::to_string(blobsAnnounced_) + " blobs but only " +
             std::to_string(pending_->blobs.size()) + " came before the next message");
        break;
      }
      pending_->blobs.push_back(std::move(frame->payload));
      continue;
    }
    if (frame->kind != FrameKind::Json) {
      fail("a blob frame arrived without a JSON message announcing it");
      break;
    }
    std::string parseError;
    std::optional<json> parsed = parseJsonWithDepthLimit(frame->payload, kMaxDepth, parseError);
    if (!parsed) {
      fail("a message is " + parseError + ": " + frame->payload.substr(0, 200));
      break;
    }
    if (!parsed->is_object()) {
      fail("a message must be a JSON object, not " + std::string(parsed->type_name()) + ": " + frame->payload.substr(0, 200));
      break;
    }
    const auto blobs = parsed->find("blobs");
    if (blobs != parsed->end() && !blobs->is_array()) {
      fail("a message's \"blobs\" must be a list of {\"mime\", \"size\"} objects, not " + std::string(blobs->type_name()));
      break;
    }
    blobsAnnounced_ = blobs == parsed->end() ? 0 : blobs->size();
    pending_ = Message{std::move(*parsed), {}};
  }
  return std::nullopt;
}

}  // namespace tilescope::util
