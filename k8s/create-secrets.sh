#!/usr/bin/env bash
# Creates the real Secrets of a Cartable namespace (production, or any cluster that should
# not run on the example values of k8s/components/example-secrets). Run it once, before
# `kubectl apply -k k8s/overlays/prod`; it refuses to overwrite a Secret that exists.
#
#   SMTP_USER=... SMTP_PASS=... [ADMIN_PASSWORD=...] [PAYMENT_AGGREGATOR_KEY=...] [NAMESPACE=cartable] k8s/create-secrets.sh
#
# Generates every password (openssl rand), the deployables' INTERNAL_SERVICE_TOKEN, the ES256
# signing key of auth (PKCS#8 PEM) and, unless given, the first administrator's password, which
# it prints once.
set -euo pipefail

ns="${NAMESPACE:-cartable}"
: "${SMTP_USER:?set SMTP_USER (the SMTP account notifications sends with)}"
: "${SMTP_PASS:?set SMTP_PASS}"
services=(auth catalog messaging moderation notifications)

for name in cartable-auth-key cartable-minio cartable-redis cartable-nats cartable-gateway "${services[@]/#/cartable-}" "${services[@]/#/cartable-pg-}"; do
  if kubectl -n "$ns" get secret "$name" >/dev/null 2>&1; then
    echo "Secret $ns/$name exists already: nothing was changed." >&2
    exit 1
  fi
done

kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f -

password() { openssl rand -hex 24; }
minio_password="$(password)"
redis_password="$(password)"
nats_password="$(password)"
admin_password="${ADMIN_PASSWORD:-$(password)}"
# The deployables' credential among themselves (auth's internal routes ask for it).
internal_token="$(password)"

key_file="$(mktemp)"
trap 'rm -f "$key_file"' EXIT
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$key_file"
kubectl -n "$ns" create secret generic cartable-auth-key --from-file=AUTH_PRIVATE_KEY="$key_file"

kubectl -n "$ns" create secret generic cartable-minio \
  --from-literal=rootUser=cartable --from-literal=rootPassword="$minio_password"

kubectl -n "$ns" create secret generic cartable-redis --from-literal=password="$redis_password"
kubectl -n "$ns" create secret generic cartable-nats --from-literal=password="$nats_password"
redis_url="redis://:$redis_password@redis:6379"
nats_url="nats://cartable:$nats_password@nats:4222"

kubectl -n "$ns" create secret generic cartable-gateway --from-literal=REDIS_URL="$redis_url" \
  --from-literal=INTERNAL_SERVICE_TOKEN="$internal_token" \
  --from-literal=S3_ACCESS_KEY=cartable --from-literal=S3_SECRET_KEY="$minio_password"

for service in "${services[@]}"; do
  db_password="$(password)"
  kubectl -n "$ns" create secret generic "cartable-pg-$service" --type=kubernetes.io/basic-auth \
    --from-literal=username="$service" --from-literal=password="$db_password"
  kubectl -n "$ns" label secret "cartable-pg-$service" cnpg.io/reload=true app.kubernetes.io/part-of=cartable

  extra=()
  case "$service" in
    auth) extra=(--from-literal=ADMIN_PASSWORD="$admin_password") ;;
    notifications) extra=(--from-literal=SMTP_USER="$SMTP_USER" --from-literal=SMTP_PASS="$SMTP_PASS") ;;
    # The aggregator's webhook key (give it to the aggregator) and, when one is used, its API key.
    catalog) extra=(--from-literal=PAYMENT_WEBHOOK_SECRET="$(password)")
      if [ -n "${PAYMENT_AGGREGATOR_KEY:-}" ]; then extra+=(--from-literal=PAYMENT_AGGREGATOR_KEY="$PAYMENT_AGGREGATOR_KEY"); fi ;;
  esac
  url_variable="$(tr '[:lower:]' '[:upper:]' <<<"$service")_DATABASE_URL"
  kubectl -n "$ns" create secret generic "cartable-$service" \
    --from-literal="$url_variable=postgres://$service:$db_password@cartable-pg-rw:5432/$service" \
    --from-literal=REDIS_URL="$redis_url" --from-literal=NATS_URL="$nats_url" \
    --from-literal=INTERNAL_SERVICE_TOKEN="$internal_token" \
    --from-literal=S3_ACCESS_KEY=cartable --from-literal=S3_SECRET_KEY="$minio_password" \
    ${extra[@]+"${extra[@]}"}
done

if [ -z "${ADMIN_PASSWORD:-}" ]; then
  echo "First administrator (ADMIN_EMAIL of the ConfigMap), password: $admin_password" >&2
fi
