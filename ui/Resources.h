#pragma once
// resources/resources.qrc lives in the static ui library, so it must be registered explicitly once.
namespace tilescope::ui {
void ensureResourcesLoaded();
}
