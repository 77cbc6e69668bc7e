#pragma once
// The coverage view: each output tensor's elements coloured by the program that wrote them (the
// same colours as the program grid by pid), never-written elements white and hatched, elements
// written with different values red; a legend and the report's sentence under each tensor.
#include "core/sim/Trace.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

Scene coverageScene(const sim::LaunchTrace& trace);

}  // namespace tilescope::viz
