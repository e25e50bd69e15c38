#!/usr/bin/env bash
# Rebuilds the excerpts from the providers' documents (see README.md for the sources).
# Usage: tests/providers/build.sh DIR-WITH-SOURCES (twilio_api_v2010.json, sendgrid_oas_v3.json,
# postmark.yaml, vonage_sms.yaml: the files named in README.md, at the commits named there).
set -euo pipefail
src=${1:?directory with the source documents}
here=$(cd "$(dirname "$0")" && pwd)
x() { python3 "$here/excerpt.py" "$@"; }

x "$src/twilio_api_v2010.json" "$here/twilio/openapi.json" --overlay "$here/twilio/overlay.yaml" \
  --op 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json' \
  --op 'GET /2010-04-01/Accounts/{AccountSid}/Messages.json' \
  --op 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json' \
  --op 'POST /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json' \
  --op 'DELETE /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json'

x "$src/sendgrid_oai_v3_stoplight.json" "$here/sendgrid/openapi.json" --overlay "$here/sendgrid/overlay.yaml" \
  --op 'POST /mail/send' \
  --op 'POST /marketing/lists' --op 'GET /marketing/lists' \
  --op 'GET /marketing/lists/{id}' --op 'PATCH /marketing/lists/{id}' --op 'DELETE /marketing/lists/{id}' \
  --op 'POST /templates' --op 'GET /templates' \
  --op 'GET /templates/{template_id}' --op 'PATCH /templates/{template_id}' --op 'DELETE /templates/{template_id}'

x "$src/postmark_server.yaml" "$here/postmark/openapi.json" --overlay "$here/postmark/overlay.yaml" \
  --op 'POST /email' --op 'GET /messages/outbound' --op 'GET /messages/outbound/{messageid}/details' \
  --op 'GET /templates' --op 'POST /templates' --op 'GET /templates/{templateIdOrAlias}' \
  --op 'PUT /templates/{templateIdOrAlias}' --op 'DELETE /templates/{templateIdOrAlias}'

x "$src/vonage_sms.yaml" "$here/vonage/openapi.json" --overlay "$here/vonage/overlay.yaml" \
  --op 'POST /{format}'

# Brevo's YAML holds dates YAML cannot read (`2023-10-0T00:00:00Z`): read it without YAML timestamps, e.g.
# python3 -c 'import yaml,json,sys; L=yaml.SafeLoader; L.yaml_implicit_resolvers={k:[r for r in v if r[0]!="tag:yaml.org,2002:timestamp"] for k,v in L.yaml_implicit_resolvers.items()}; json.dump(yaml.load(open(sys.argv[1]),Loader=L),open(sys.argv[2],"w"))' swagger_definition_v3.yml brevo.json
x "$src/brevo.json" "$here/brevo/openapi.json" --keep-operation-ids \
  --op 'POST /contacts' --op 'GET /contacts' --op 'GET /contacts/{identifier}' \
  --op 'PUT /contacts/{identifier}' --op 'DELETE /contacts/{identifier}' --op 'POST /smtp/email'

x "$src/resend.yaml" "$here/resend/openapi.json" --keep-operation-ids --overlay "$here/resend/overlay.yaml" \
  --op 'POST /emails' --op 'GET /emails' --op 'GET /emails/{email_id}' \
  --op 'POST /contacts' --op 'GET /contacts' --op 'GET /contacts/{id}' --op 'PATCH /contacts/{id}' --op 'DELETE /contacts/{id}' \
  --webhook email.sent --webhook email.delivered

# Infobip's voice document as published in the `api-evangelist/infobip` collection.
x "$src/infobip-voice-openapi.json" "$here/infobip_voice/openapi.json" --keep-operation-ids --overlay "$here/infobip_voice/overlay.yaml" \
  --op 'GET /callrouting/1/routes' --op 'POST /callrouting/1/routes' --op 'GET /callrouting/1/routes/{routeId}' \
  --op 'PUT /callrouting/1/routes/{routeId}' --op 'DELETE /callrouting/1/routes/{routeId}'

# Mailgun's document as published with its MCP server (`src/openapi.yaml`).
x "$src/mailgun_openapi.yaml" "$here/mailgun/openapi.json" --keep-operation-ids --overlay "$here/mailgun/overlay.yaml" \
  --op 'GET /v3/{domain_name}/bounces' --op 'POST /v3/{domain_name}/bounces' \
  --op 'GET /v3/{domain_name}/bounces/{address}' --op 'DELETE /v3/{domain_name}/bounces/{address}'

x "$src/clicksend.yaml" "$here/clicksend/openapi.json" --keep-operation-ids \
  --op 'GET /lists' --op 'POST /lists' --op 'GET /lists/{list_id}' --op 'PUT /lists/{list_id}' \
  --op 'DELETE /lists/{list_id}' --op 'GET /lists/{list_id}/contacts' --op 'POST /lists/{list_id}/contacts' \
  --op 'GET /lists/{list_id}/contacts/{contact_id}' --op 'PUT /lists/{list_id}/contacts/{contact_id}' \
  --op 'DELETE /lists/{list_id}/contacts/{contact_id}' --op 'POST /sms/send' --op 'GET /numbers'
