#!/usr/bin/env bash
# Configure Debian's Postfix for Postal Boards on loopback (run as root; idempotent).
#
#   REPLY_DOMAIN=reply.example.org PBM_DIR=/srv/pbm deploy/postfix/setup.sh
#
# Variables (with defaults): REPLY_DOMAIN (required: the server's REPLY_DOMAIN), PBM_DIR (the
# project checkout the pipe runs, default: this checkout), PBM_USER (pbm: runs the pipe, never
# root), PBM_ENV_FILE (/etc/pbm/pbm.env), SMTP_PORT (2525), MAILLOG (/var/log/postfix-pbm.log),
# TEST_MAILBOX_DOMAIN (unset; CI only: mail to this domain goes to a local Maildir under
# /var/mail/pbm-test, so a test can read what the server sent).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${REPLY_DOMAIN:?set REPLY_DOMAIN to the reply domain of the server}"
PBM_DIR="${PBM_DIR:-$(cd "$here/../.." && pwd)}"
PBM_USER="${PBM_USER:-pbm}"
PBM_ENV_FILE="${PBM_ENV_FILE:-/etc/pbm/pbm.env}"
SMTP_PORT="${SMTP_PORT:-2525}"
MAILLOG="${MAILLOG:-/var/log/postfix-pbm.log}"
MYHOSTNAME="${MYHOSTNAME:-$(hostname -f 2>/dev/null || hostname)}"
case "$MYHOSTNAME" in *.*) ;; *) MYHOSTNAME="$MYHOSTNAME.localdomain" ;; esac

fill() {
  sed -e "s|@REPLY_DOMAIN@|$REPLY_DOMAIN|g" -e "s|@PBM_DIR@|$PBM_DIR|g" \
      -e "s|@PBM_USER@|$PBM_USER|g" -e "s|@ENV_FILE@|$PBM_ENV_FILE|g" \
      -e "s|@SMTP_PORT@|$SMTP_PORT|g" -e "s|@MAILLOG@|$MAILLOG|g" \
      -e "s|@MYHOSTNAME@|$MYHOSTNAME|g" "$1" | grep -v '^#' | grep -v '^$'
}

id "$PBM_USER" >/dev/null 2>&1 || useradd --system --create-home --home-dir "/var/lib/$PBM_USER" \
  --shell /usr/sbin/nologin "$PBM_USER"
install -d -m 0755 "$(dirname "$PBM_ENV_FILE")"
[ -e "$PBM_ENV_FILE" ] || install -m 0640 -g "$PBM_USER" /dev/null "$PBM_ENV_FILE"

[ -e /etc/postfix/main.cf ] || : > /etc/postfix/main.cf
while IFS= read -r line; do postconf -e "$line"; done < <(fill "$here/main.cf")
# Debian's master.cf runs most services chrooted, which needs copies of /etc files that a
# bare `postfix start` does not make; loopback only, we do without the chroot.
postconf -F '*/*/chroot = n'
postconf -MX smtp/inet 2>/dev/null || true
while IFS= read -r line; do postconf -M "$line"; done < <(fill "$here/master.cf")
printf '%s pbm:\n' "$REPLY_DOMAIN" > /etc/postfix/pbm_transport

if [ -n "${TEST_MAILBOX_DOMAIN:-}" ]; then
  install -d -o "$PBM_USER" -g "$PBM_USER" -m 0750 /var/mail/pbm-test
  postconf -e "virtual_mailbox_domains = $TEST_MAILBOX_DOMAIN" \
    "virtual_mailbox_base = /var/mail/pbm-test" \
    "virtual_mailbox_maps = static:$TEST_MAILBOX_DOMAIN/" \
    "virtual_uid_maps = static:$(id -u "$PBM_USER")" \
    "virtual_gid_maps = static:$(id -g "$PBM_USER")"
fi
postmap /etc/postfix/pbm_transport
touch "$MAILLOG"
postfix check
if postfix status >/dev/null 2>&1; then postfix reload; else postfix start; fi
for _ in $(seq 20); do
  (exec 3<>"/dev/tcp/127.0.0.1/$SMTP_PORT") 2>/dev/null && break
  sleep 0.5
done
(exec 3<>"/dev/tcp/127.0.0.1/$SMTP_PORT") || { echo "Postfix does not listen on $SMTP_PORT"; exit 1; }
echo "Postfix listens on 127.0.0.1:$SMTP_PORT; $REPLY_DOMAIN is piped to $PBM_DIR as $PBM_USER"
