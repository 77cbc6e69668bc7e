// core/base/MessageStream: JSON messages with their announced blobs, assembled from frames that
// arrive in arbitrary pieces; what makes a stream untrustworthy is final.
#include <gtest/gtest.h>

#include <string>

#include "core/base/FrameCodec.h"
#include "core/base/MessageStream.h"

using tilescope::util::encodeFrame;
using tilescope::util::FrameKind;
using tilescope::util::MessageStream;

TEST(MessageStream, AssemblesAMessageAndItsBlobsFedByteByByte) {
  const std::string bytes = encodeFrame(FrameKind::Json, R"({"type":"a","blobs":[{"size":2},{"size":0}]})") +
                            encodeFrame(FrameKind::Blob, "xy") + encodeFrame(FrameKind::Blob, "") +
                            encodeFrame(FrameKind::Json, R"({"type":"b"})");
  MessageStream stream;
  std::vector<tilescope::util::Message> messages;
  for (char c : bytes) {
    EXPECT_TRUE(messages.size() == 1 || stream.midMessage() || messages.empty());
    stream.feed(&c, 1);
    while (auto m = stream.next()) messages.push_back(std::move(*m));
  }
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].json["type"], "a");
  EXPECT_EQ(messages[0].blobs, (std::vector<std::string>{"xy", ""}));
  EXPECT_EQ(messages[1].json["type"], "b");
  EXPECT_TRUE(messages[1].blobs.empty());
  EXPECT_FALSE(stream.midMessage());
  EXPECT_FALSE(stream.failed());
}

TEST(MessageStream, WhatBreaksTheStreamIsFinal) {
  const struct {
    std::string bytes;
    const char* error;
  } cases[] = {
      {encodeFrame(FrameKind::Blob, "x"), "a blob frame arrived without a JSON message announcing it"},
      {encodeFrame(FrameKind::Json, "[1]"), "a message must be a JSON object, not array: [1]"},
      {encodeFrame(FrameKind::Json, "{\"type\": "), "a message is not valid JSON: "},
      {encodeFrame(FrameKind::Json, R"({"type":"a","blobs":3})"), "a message's \"blobs\" must be a list"},
      {encodeFrame(FrameKind::Json, R"({"type":"a","blobs":[{},{}]})") + encodeFrame(FrameKind::Blob, "1") +
           encodeFrame(FrameKind::Json, "{}"),
       "a message announced 2 blobs but only 1 came before the next message"},
      {encodeFrame(FrameKind::Json, "{\"a\":" + std::string(65, '[') + std::string(65, ']') + "}"),
       "a message is the JSON nests deeper than 64 levels"},
      {"Xjunk", "bad frame kind byte 88"},
  };
  for (const auto& c : cases) {
    MessageStream stream;
    stream.feed(c.bytes.data(), c.bytes.size());
    EXPECT_FALSE(stream.next()) << c.error;
    EXPECT_TRUE(stream.failed()) << c.error;
    EXPECT_EQ(stream.error().rfind(c.error, 0), 0u) << stream.error();
    const std::string good = encodeFrame(FrameKind::Json, "{}");
    stream.feed(good.data(), good.size());
    EXPECT_FALSE(stream.next()) << "nothing is read after a broken stream";
  }
  // 63 levels inside the message object are fine.
  MessageStream deepEnough;
  const std::string ok = encodeFrame(FrameKind::Json, "{\"a\":" + std::string(63, '[') + std::string(63, ']') + "}");
  deepEnough.feed(ok.data(), ok.size());
  EXPECT_TRUE(deepEnough.next());
}
