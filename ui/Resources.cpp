#include "ui/Resources.h"

#include <QtGlobal>
#include <mutex>

static void registerTilescopeResources() { Q_INIT_RESOURCE(resources); }

namespace tilescope::ui {
void ensureResourcesLoaded() {
  static std::once_flag once;
  std::call_once(once, registerTilescopeResources);
}
}  // namespace tilescope::ui
