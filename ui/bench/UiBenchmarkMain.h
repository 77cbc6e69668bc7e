#pragma once
// The main() every GUI benchmark program shares: an offscreen QApplication (unless a platform is
// given), Qt's test mode so the user's settings stay untouched, the real worker runtime, then
// Google Benchmark. Included once, at the end of each ui/bench/bench_*.cpp.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QStandardPaths>
#include <cstdio>

int main(int argc, char** argv) {
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  qunsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");  // workers run the real host runtime, never the tests' stand-in
  QStandardPaths::setTestModeEnabled(true);     // leave the user's settings alone
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::printf("Qt platform: %s\n", qPrintable(QApplication::platformName()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
