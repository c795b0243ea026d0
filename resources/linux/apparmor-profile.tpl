abi <abi/4.0>,
include <tunables/global>

# Installed by the deb (electron-builder's after-install script) as /etc/apparmor.d/${executable}:
# Ubuntu 24.04 restricts unprivileged user namespaces, which Chromium's sandbox needs.
profile ${executable} /opt/${sanitizedProductName}/${executable} flags=(unconfined) {
  userns,

  # Site-specific additions and overrides.
  include if exists <local/${executable}>
}
