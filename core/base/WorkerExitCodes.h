#pragma once
// Exit codes the notebook worker (`tilescope-cli worker`) uses on purpose, so the app can say why it
// started a fresh one.
namespace tilescope::util {

// The last cell faulted the GPU (illegal address, trap, ...). CUDA keeps such a process's GPU state
// broken, so the worker finishes the cell's reply and exits; the app starts a fresh worker.
inline constexpr int kWorkerExitAfterGpuFault = 75;

// The worker's input ended (the app quit, or the SSH connection to a remote worker closed) and the
// running cell ignored the cancel for kWorkerEndOfInputGraceSeconds: the worker ends itself, since
// nobody can read its results and nobody else would stop it.
inline constexpr int kWorkerExitCellOutlivedInput = 76;
inline constexpr int kWorkerEndOfInputGraceSeconds = 2;

}  // namespace tilescope::util
