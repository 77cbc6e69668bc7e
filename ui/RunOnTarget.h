#pragma once
// Where a notebook's cells run: this machine, or an SSH host's `tilescope-cli worker` (docs/PROTOCOL.md,
// "Remote workers"). Set app-wide in Preferences or per notebook in its metadata:
//   {"tilescope": {"run_on": {"ssh": "ana@gpu-box", "port": 2222, "identity_file": "~/.ssh/lab",
//                             "remote_command": "/opt/tilescope/bin/tilescope-cli"}}}
// or "run_on": "local" (this machine, whatever the preferences say). No password is ever stored.
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>

namespace tilescope::ui {

struct RunOnTarget {
  QString host;  // user@host or a ~/.ssh/config alias; empty: this machine
  int port = 0;  // 0: ssh's default
  QString identityFile;
  QString remoteCommand = QStringLiteral("tilescope-cli");

  bool isRemote() const { return !host.isEmpty(); }
  // Empty when usable, else what to fix (core/base/SshTarget's checks).
  QString validate() const;
  // "gpu-box" (no user), or "this machine".
  QString displayName() const;
  nlohmann::json toJson() const;
  // Names every field that decides what runs where (host, port, identity file, remote command): the
  // form the app-wide list of hosts the user approved for notebooks keeps (Preferences).
  QString approvalKey() const;
  // A notebook's "run_on" value; nullopt when it is missing or not one.
  static std::optional<RunOnTarget> fromJson(const nlohmann::json& value);
  // The "run_on" of a notebook's metadata, if it has one.
  static std::optional<RunOnTarget> fromNotebookMetadata(const nlohmann::json& metadata);
  bool operator==(const RunOnTarget&) const = default;
};

}  // namespace tilescope::ui
