// tilescope-cli: the headless front door to core (check, run, compile, devices, worker).
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--version") {
    std::printf("tilescope-cli %s\n", TILESCOPE_VERSION);
    return 0;
  }
  std::fprintf(stderr, "usage: tilescope-cli --version\n");
  return 2;
}
