#pragma once
// Where a remote worker runs: an SSH host, with optional port, identity file and the path of
// tilescope-cli there (docs/PROTOCOL.md, "Remote workers"). Builds the system ssh client's argument
// list (never a shell command line: the app and `tilescope-cli run --remote` pass it to exec as a
// list) and turns what ssh said when a connection failed into a sentence that says what to do.
#include <optional>
#include <string>
#include <vector>

namespace tilescope::util {

struct SshTarget {
  std::string host;                            // "user@host", "host" or a ~/.ssh/config alias
  int port = 0;                                // 0: ssh's default (or the config's Port)
  std::string identityFile;                    // empty: the agent's keys / the config's IdentityFile
  std::string remoteCommand = "tilescope-cli";  // tilescope-cli on the host: a name in its PATH or a path

  // The host as the user calls it, without "user@": the status bar's "gpu-box: NVIDIA H100 (sm_90)".
  std::string displayName() const;
  bool operator==(const SshTarget&) const = default;
};

// Empty when the target is usable, else what is wrong and how to fix it. The host and the remote
// command are checked against the characters they may hold, so neither can pass an option to ssh nor
// a word to the remote shell that runs the command.
std::string validateSshTarget(const SshTarget& target);

// The ssh client to run: $TILESCOPE_SSH when set (a wrapper, or ssh outside PATH), else "ssh".
std::string sshProgram();

// ssh's arguments (without the program): -T, BatchMode (a missing key fails at once instead of
// prompting for a password nobody can type), a connect timeout, the port and identity file, then the
// host and the remote command with `remoteArguments` ("worker"). Only for a validated target.
std::vector<std::string> sshArguments(const SshTarget& target, const std::vector<std::string>& remoteArguments);

// The user's sentence for an ssh session that ended before the worker's hello: exit status and what
// ssh (or the remote shell) wrote on stderr. Names the host and says what to do.
std::string describeSshFailure(const SshTarget& target, int exitCode, const std::string& stderrText);

// The user's sentence for bytes that are not a protocol frame arriving before the remote worker's
// hello: usually a login script that prints on a non-interactive shell.
std::string describeRemoteGarbage(const SshTarget& target, const std::string& firstBytes);

// "user@host[:port]" as `tilescope-cli run --remote` takes it; nullopt with `error` set when bad.
std::optional<SshTarget> parseSshTarget(const std::string& text, std::string& error);

}  // namespace tilescope::util
