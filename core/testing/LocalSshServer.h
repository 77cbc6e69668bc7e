#pragma once
// An OpenSSH server on 127.0.0.1 for the remote-worker tests and benchmark: its own port, host key,
// client keys and configs, all made in a fresh temporary folder and removed afterwards; the user's
// ~/.ssh is never read or written. ssh reaches it through a wrapper (`sshWrapper()`, the value for
// TILESCOPE_SSH) that adds `-F` with Host aliases:
//   tilescope-test            the server, with an authorised key
//   tilescope-test-wrong-key  the server, offering a key it does not accept
//   tilescope-test-new-host   the server, with no known_hosts entry for it
// Works as root (creates sshd's /run/sshd when missing) and as another user. When sshd cannot start,
// skipReason() says why, for GTEST_SKIP.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace tilescope::testing {

class LocalSshServer {
public:
  LocalSshServer() { start(); }
  ~LocalSshServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }
  LocalSshServer(const LocalSshServer&) = delete;
  LocalSshServer& operator=(const LocalSshServer&) = delete;

  const std::string& skipReason() const { return skipReason_; }
  int port() const { return port_; }
  const std::string& dir() const { return dir_; }
  std::string sshWrapper() const { return dir_ + "/ssh"; }
  std::string clientKey() const { return dir_ + "/client_key"; }
  static constexpr const char* kHost = "tilescope-test";

  // An executable script in the folder: "#!/bin/sh" and `body`. Its path.
  std::string writeScript(const std::string& name, const std::string& body) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0700);
    return path;
  }

private:
  static bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

  static std::string readFile(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }

  static int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      port = ntohs(address.sin_port);
    ::close(fd);
    return port;
  }

  static bool accepts(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return ok;
  }

  void start() {
    const char* sshd = "/usr/sbin/sshd";
    if (::access(sshd, X_OK) != 0) {
      skipReason_ = "no OpenSSH server (/usr/sbin/sshd): install openssh-server (scripts/setup.sh)";
      return;
    }
    if (::access("/usr/bin/ssh-keygen", X_OK) != 0 || std::system("command -v ssh >/dev/null 2>&1") != 0) {
      skipReason_ = "no OpenSSH client (ssh, ssh-keygen): install openssh-client (scripts/setup.sh)";
      return;
    }
    char folder[] = "/tmp/tilescope-sshd-XXXXXX";
    if (!::mkdtemp(folder)) {
      skipReason_ = "cannot make a temporary folder";
      return;
    }
    dir_ = folder;
    // sshd started by root checks its privilege-separation folder (Debian's is made by the service).
    if (::geteuid() == 0) ::mkdir("/run/sshd", 0755);
    for (const char* key : {"host_key", "client_key", "wrong_key"})
      if (!run("ssh-keygen -q -t ed25519 -N '' -C tilescope-test -f " + dir_ + "/" + key + " >/dev/null 2>&1")) {
        skipReason_ = "ssh-keygen could not make a key";
        return;
      }
    std::filesystem::copy_file(dir_ + "/client_key.pub", dir_ + "/authorized_keys");
    port_ = freePort();
    const passwd* user = ::getpwuid(::geteuid());
    const std::string userName = user ? user->pw_name : "root";
    std::ofstream(dir_ + "/sshd_config") << "Port " << port_ << "\nListenAddress 127.0.0.1\nHostKey " << dir_
                                         << "/host_key\nPidFile " << dir_ << "/sshd.pid\nAuthorizedKeysFile " << dir_
                                         << "/authorized_keys\nPubkeyAuthentication yes\nPasswordAuthentication no\n"
                                            "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
                                            "PermitRootLogin prohibit-password\nLogLevel ERROR\n";
    std::ofstream(dir_ + "/known_hosts") << "[127.0.0.1]:" << port_ << " " << readFile(dir_ + "/host_key.pub");
    std::ofstream(dir_ + "/no_known_hosts");
    std::ostringstream config;
    auto host = [&](const std::string& alias, const std::string& key, const std::string& knownHosts) {
      config << "Host " << alias << "\n  HostName 127.0.0.1\n  Port " << port_ << "\n  User " << userName << "\n  IdentityFile "
             << dir_ << "/" << key << "\n  UserKnownHostsFile " << dir_ << "/" << knownHosts << "\n";
    };
    host("tilescope-test", "client_key", "known_hosts");
    host("tilescope-test-wrong-key", "wrong_key", "known_hosts");
    host("tilescope-test-new-host", "client_key", "no_known_hosts");
    // Never the user's own keys, agent or known hosts.
    config << "Host *\n  IdentitiesOnly yes\n  IdentityAgent none\n  StrictHostKeyChecking yes\n  GlobalKnownHostsFile /dev/null\n"
              "  UserKnownHostsFile " << dir_ << "/known_hosts\n  LogLevel ERROR\n";
    std::ofstream(dir_ + "/ssh_config") << config.str();
    writeScript("ssh", "exec ssh -F " + dir_ + "/ssh_config \"$@\"");

    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string log = dir_ + "/sshd.log";
      std::freopen(log.c_str(), "w", stderr);
      std::freopen("/dev/null", "r", stdin);
      const std::string config = dir_ + "/sshd_config";
      ::execl(sshd, sshd, "-D", "-e", "-f", config.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!accepts(port_)) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        skipReason_ = "sshd did not start: " + readFile(dir_ + "/sshd.log");
        return;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        skipReason_ = "sshd did not listen on port " + std::to_string(port_) + " within 10 s: " + readFile(dir_ + "/sshd.log");
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  std::string dir_;
  std::string skipReason_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace tilescope::testing
