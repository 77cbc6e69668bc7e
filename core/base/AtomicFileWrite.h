#pragma once
// Replacing a user's file without harming it: a save either lands completely or leaves the old file
// as it was. Follows symbolic links to the real file (the link stays a link), refuses files the user
// may not write (read-only ones even for root), writes a fresh temporary file that a planted link
// cannot redirect, keeps the original's permissions and owner, and makes it durable (fsync of the
// file, rename, fsync of the folder).
#include <string>
#include <string_view>

namespace tilescope::util {

// Writes bytes to path. Returns "" on success, else "path: what went wrong; the file was not
// changed" with what to do.
std::string writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace tilescope::util
