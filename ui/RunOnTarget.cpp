#include "ui/RunOnTarget.h"

#include <QObject>

#include "core/base/SshTarget.h"

namespace tilescope::ui {
namespace {
util::SshTarget sshTarget(const RunOnTarget& t) {
  return {t.host.toStdString(), t.port, t.identityFile.toStdString(), t.remoteCommand.toStdString()};
}
}  // namespace

QString RunOnTarget::validate() const {
  if (!isRemote()) return {};
  return QString::fromStdString(util::validateSshTarget(sshTarget(*this)));
}

QString RunOnTarget::displayName() const {
  return isRemote() ? QString::fromStdString(sshTarget(*this).displayName()) : QObject::tr("this machine");
}

QString RunOnTarget::approvalKey() const {
  return QStringLiteral("%1|%2|%3|%4").arg(host).arg(port).arg(identityFile, remoteCommand);
}

nlohmann::json RunOnTarget::toJson() const {
  if (!isRemote()) return "local";
  nlohmann::json out = {{"ssh", host.toStdString()}};
  if (port > 0) out["port"] = port;
  if (!identityFile.isEmpty()) out["identity_file"] = identityFile.toStdString();
  if (remoteCommand != QLatin1String("tilescope-cli")) out["remote_command"] = remoteCommand.toStdString();
  return out;
}

std::optional<RunOnTarget> RunOnTarget::fromJson(const nlohmann::json& value) {
  if (value.is_string() && value.get<std::string>() == "local") return RunOnTarget{};
  if (!value.is_object()) return std::nullopt;
  const auto ssh = value.find("ssh");
  if (ssh == value.end() || !ssh->is_string() || ssh->get<std::string>().empty()) return std::nullopt;
  RunOnTarget t;
  t.host = QString::fromStdString(ssh->get<std::string>());
  if (const auto port = value.find("port"); port != value.end() && port->is_number_integer()) t.port = port->get<int>();
  if (const auto key = value.find("identity_file"); key != value.end() && key->is_string())
    t.identityFile = QString::fromStdString(key->get<std::string>());
  if (const auto command = value.find("remote_command"); command != value.end() && command->is_string())
    t.remoteCommand = QString::fromStdString(command->get<std::string>());
  return t;
}

std::optional<RunOnTarget> RunOnTarget::fromNotebookMetadata(const nlohmann::json& metadata) {
  if (!metadata.is_object()) return std::nullopt;
  const auto tilescope = metadata.find("tilescope");
  if (tilescope == metadata.end() || !tilescope->is_object()) return std::nullopt;
  const auto runOn = tilescope->find("run_on");
  return runOn == tilescope->end() ? std::nullopt : fromJson(*runOn);
}

}  // namespace tilescope::ui
