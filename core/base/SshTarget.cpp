#include "core/base/SshTarget.h"

#include <algorithm>
#include <cstdlib>

namespace tilescope::util {
namespace {

bool allOf(const std::string& text, const char* extra) {
  return std::all_of(text.begin(), text.end(), [extra](char c) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return alnum || (c != '\0' && std::string_view(extra).find(c) != std::string_view::npos);
  });
}

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

// The last non-empty lines of what ssh wrote, for messages that quote it.
std::string lastLines(const std::string& text, size_t count) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  std::string out;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " / ") + lines[i];
  return out;
}

}  // namespace

std::string SshTarget::displayName() const {
  const size_t at = host.rfind('@');
  return at == std::string::npos ? host : host.substr(at + 1);
}

std::string validateSshTarget(const SshTarget& target) {
  const std::string& host = target.host;
  if (host.empty()) return "The SSH host is empty: give it as user@host or as a Host alias of ~/.ssh/config.";
  if (host.size() > 255) return "The SSH host is longer than 255 characters: give it as user@host.";
  const size_t at = host.rfind('@');
  const std::string user = at == std::string::npos ? "" : host.substr(0, at);
  const std::string name = at == std::string::npos ? host : host.substr(at + 1);
  // ':' for IPv6 addresses, '%' for their zone. No spaces, quotes or shell characters, and no
  // leading '-' that ssh would read as an option.
  if (name.empty() || name.front() == '-' || !allOf(name, "._-:%") || (at != std::string::npos && (user.empty() || user.front() == '-' || !allOf(user, "._-"))))
    return "The SSH host '" + host + "' is not a host name: give it as user@host or host (letters, digits, '.', '-', '_'), "
           "and put a port or options in Port / ~/.ssh/config rather than in the host.";
  if (target.port < 0 || target.port > 65535)
    return "The SSH port " + std::to_string(target.port) + " is not a port: give a number from 1 to 65535 (or none for ssh's default).";
  if (std::any_of(target.identityFile.begin(), target.identityFile.end(), [](char c) { return c == '\0' || c == '\n' || c == '\r'; }))
    return "The identity file's path holds a line break: give the path of a private key file such as ~/.ssh/id_ed25519.";
  const std::string& command = target.remoteCommand;
  // The remote shell reads the command: only characters that mean nothing to it ('~' expands to the
  // remote home, as users expect of "~/bin/tilescope-cli").
  if (command.empty() || command.front() == '-' || !allOf(command, "._-/~+"))
    return "The remote command '" + command + "' is not a program path: give tilescope-cli's name or its path on the host "
           "(letters, digits and . _ - / ~ +, no spaces), such as /opt/tilescope/bin/tilescope-cli.";
  return {};
}

std::string sshProgram() {
  const char* custom = std::getenv("TILESCOPE_SSH");
  return custom && *custom ? custom : "ssh";
}

std::vector<std::string> sshArguments(const SshTarget& target, const std::vector<std::string>& remoteArguments) {
  std::vector<std::string> args{"-T",
                                "-o", "BatchMode=yes",
                                "-o", "ConnectTimeout=15",
                                // A dead network shows up as a closed connection within a minute.
                                "-o", "ServerAliveInterval=15",
                                "-o", "ServerAliveCountMax=4"};
  if (target.port > 0) args.insert(args.end(), {"-p", std::to_string(target.port)});
  if (!target.identityFile.empty()) args.insert(args.end(), {"-i", target.identityFile});
  args.push_back("--");  // whatever follows is the host, never an option
  args.push_back(target.host);
  args.push_back(target.remoteCommand);
  args.insert(args.end(), remoteArguments.begin(), remoteArguments.end());
  return args;
}

std::string describeSshFailure(const SshTarget& target, const int exitCode, const std::string& stderrText) {
  const std::string host = target.displayName();
  const std::string said = lastLines(stderrText, 3);
  const std::string quoted = said.empty() ? "" : " (ssh said: " + said + ")";
  if (contains(stderrText, "Could not resolve hostname") || contains(stderrText, "Name or service not known"))
    return "The host '" + host + "' is unknown" + quoted + ". Check its spelling, or add a Host entry for it to ~/.ssh/config.";
  if (contains(stderrText, "Host key verification failed") || contains(stderrText, "host key for") ||
      contains(stderrText, "No matching host key") || contains(stderrText, "REMOTE HOST IDENTIFICATION HAS CHANGED"))
    return "The host key of '" + host + "' is not known (or changed)" + quoted + ". tilescope never accepts host keys by itself: "
           "connect once in a terminal with `ssh " + target.host + "`, check the key's fingerprint and accept it, then run again.";
  // ssh itself exits with 255; any other status is the remote shell's or the command's.
  const bool sshFailed = exitCode == 255;
  if (sshFailed && (contains(stderrText, "Permission denied") || contains(stderrText, "Too many authentication failures")))
    return "'" + host + "' refused the login" + quoted + ". tilescope uses SSH keys and the agent only, never passwords: load "
           "your key with `ssh-add` or give its identity file (Run > Run On... in the app, --identity for tilescope-cli run), and check that `ssh -o BatchMode=yes " +
           target.host + " true` works in a terminal.";
  if (sshFailed && (contains(stderrText, "Connection refused") || contains(stderrText, "timed out") || contains(stderrText, "No route to host") ||
      contains(stderrText, "Network is unreachable") || contains(stderrText, "Connection closed by") ||
      contains(stderrText, "Connection reset")))
    return "Cannot reach an SSH server on '" + host + "'" + quoted + ". Check that the machine is on and that its SSH server "
           "listens on that port.";
  if (!sshFailed && (exitCode == 127 || contains(stderrText, "command not found") || contains(stderrText, "No such file or directory")))
    return "'" + target.remoteCommand + "' was not found on '" + host + "'" + quoted + ". Install tilescope there, or give "
           "tilescope-cli's full path on that host as the remote command (Run > Run On... in the app, --remote-command for "
           "tilescope-cli run).";
  if (!sshFailed && (exitCode == 126 || contains(stderrText, "Permission denied")))
    return "'" + target.remoteCommand + "' cannot be run on '" + host + "'" + quoted + ". Check that it is tilescope-cli and executable.";
  return "The connection to '" + host + "' ended before its worker started (exit status " + std::to_string(exitCode) + ")" + quoted +
         ". Check that `ssh " + target.host + " " + target.remoteCommand + " worker --help` works in a terminal.";
}

std::string describeRemoteGarbage(const SshTarget& target, const std::string& firstBytes) {
  std::string shown;
  for (char c : firstBytes.substr(0, 60)) shown += (c >= ' ' && c < 127) ? c : ' ';
  return "Something on '" + target.displayName() + "' printed \"" + shown + "\" where the worker's first message belongs: "
         "usually a login script (~/.bashrc, ~/.profile) that prints for non-interactive shells too. Make it print only "
         "in interactive shells, and check that `" + target.remoteCommand + "` there is tilescope-cli.";
}

std::optional<SshTarget> parseSshTarget(const std::string& text, std::string& error) {
  SshTarget target;
  target.host = text;
  // "host:port", but not an IPv6 address (several colons).
  const size_t colon = text.rfind(':');
  if (colon != std::string::npos && text.find(':') == colon) {
    target.host = text.substr(0, colon);
    const std::string port = text.substr(colon + 1);
    if (port.empty() || port.size() > 5 || !allOf(port, "") ) {
      error = "'" + text + "': the port after ':' must be a number from 1 to 65535";
      return std::nullopt;
    }
    target.port = std::stoi(port);
    if (target.port == 0) target.port = -1;  // refused below
  }
  error = validateSshTarget(target);
  if (!error.empty()) return std::nullopt;
  return target;
}

}  // namespace tilescope::util
