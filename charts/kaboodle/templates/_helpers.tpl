{{/* Names, labels and the decisions every template shares (which targets run, which engines). */}}

{{- define "kaboodle.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kaboodle.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "kaboodle.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The targets this release runs: ["all"] in single mode, one per service in distributed mode. */}}
{{- define "kaboodle.targets" -}}
{{- if eq .Values.deploymentMode "distributed" -}}
{{- list "auth" "ingestion" "processing" "catalogue" "search" "web" | toJson -}}
{{- else -}}
{{- list "all" | toJson -}}
{{- end -}}
{{- end -}}

{{/* Name of a target's workload and Service: <fullname> in single mode, <fullname>-<target> otherwise. */}}
{{- define "kaboodle.componentName" -}}
{{- if eq .target "all" -}}
{{- include "kaboodle.fullname" .root -}}
{{- else -}}
{{- printf "%s-%s" (include "kaboodle.fullname" .root) .target -}}
{{- end -}}
{{- end -}}

{{- define "kaboodle.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kaboodle.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .target }}
{{- end -}}

{{/* Labels of the release as a whole (no component): for NetworkPolicy peers and shared objects. */}}
{{- define "kaboodle.releaseSelector" -}}
app.kubernetes.io/name: {{ include "kaboodle.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "kaboodle.labels" -}}
helm.sh/chart: {{ include "kaboodle.chart" .root }}
{{ include "kaboodle.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: kaboodle
{{- end -}}

{{- define "kaboodle.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* A target's image: services.<target>.image overrides the release's repository and tag. */}}
{{- define "kaboodle.targetImage" -}}
{{- $root := .root -}}
{{- $own := dig "image" dict (index $root.Values.services .target | default dict) -}}
{{- $repository := $own.repository | default $root.Values.image.repository -}}
{{- $tag := $own.tag | default $root.Values.image.tag | default $root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}

{{/* A target's ServiceAccount: its own (<release>-<target>), or the one named when create is false. */}}
{{- define "kaboodle.serviceAccountName" -}}
{{- $root := .root -}}
{{- if $root.Values.serviceAccount.create -}}
{{- include "kaboodle.componentName" . -}}
{{- else -}}
{{- default "default" $root.Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
Which targets each chart-managed secret value reaches: a pod gets the keys its code reads, no others.
*/}}
{{- define "kaboodle.secretOwners" -}}
{{- dict
  "S3_ACCESS_KEY" (list "ingestion" "processing" "catalogue")
  "S3_SECRET_KEY" (list "ingestion" "processing" "catalogue")
  "OPENAI_API_KEY" (list "processing")
  "AUTH_KEY_SECRET" (list "auth")
  "SMTP_URL" (list "auth")
  "ELASTICSEARCH_PASSWORD" (list "search")
  "KAFKA_SASL_PASSWORD" (list "auth" "ingestion" "processing" "catalogue" "search")
  | toJson -}}
{{- end -}}

{{/* The chart-managed secret values of one target ("all" gets every key), as a JSON object. */}}
{{- define "kaboodle.targetSecretValues" -}}
{{- $root := .root -}}
{{- $target := .target -}}
{{- $owners := include "kaboodle.secretOwners" $root | fromJson -}}
{{- $out := dict -}}
{{- range $key, $value := $root.Values.secrets.values -}}
{{- if and $value (or (eq $target "all") (has $target (index $owners $key | default list))) -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- $db := $root.Values.database -}}
{{- if not $db.existingSecret -}}
{{- if eq $target "all" -}}
{{- if $db.urls.all }}{{ $_ := set $out $db.secretKeys.all $db.urls.all }}{{ end -}}
{{- else if hasKey $db.urls $target -}}
{{- $url := index $db.urls $target | default $db.urls.all -}}
{{- if $url }}{{ $_ := set $out (index $db.secretKeys $target) $url }}{{ end -}}
{{- end -}}
{{- end -}}
{{- $out | toJson -}}
{{- end -}}

{{/* A target's chart-managed Secret (from secrets.values and database.urls): <component>-secrets. */}}
{{- define "kaboodle.secretName" -}}
{{- printf "%s-secrets" (include "kaboodle.componentName" .) -}}
{{- end -}}

{{- define "kaboodle.hasDatabaseUrls" -}}
{{- range $k, $v := .Values.database.urls }}{{ if $v }}true{{ end }}{{ end -}}
{{- end -}}

{{/*
An engine is rendered when enabled is true, or when it is `auto`, the mode is distributed and no
external engine is configured. Returns "true" or "".
*/}}
{{- define "kaboodle.engineEnabled" -}}
{{- $root := .root -}}
{{- $setting := toString (index $root.Values.engines .engine).enabled -}}
{{- if eq $setting "true" -}}
true
{{- else if and (eq $setting "auto") (eq $root.Values.deploymentMode "distributed") -}}
{{- if eq .engine "postgres" -}}
{{- if not (or $root.Values.database.existingSecret (include "kaboodle.hasDatabaseUrls" $root)) }}true{{ end -}}
{{- else if eq .engine "kafka" -}}
{{- if not $root.Values.config.KAFKA_BROKERS }}true{{ end -}}
{{- else if eq .engine "minio" -}}
{{- if not $root.Values.config.S3_ENDPOINT }}true{{ end -}}
{{- else if eq .engine "elasticsearch" -}}
{{- if not $root.Values.config.ELASTICSEARCH_URL }}true{{ end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "kaboodle.postgresCluster" -}}{{ include "kaboodle.fullname" . }}-pg{{- end -}}
{{- define "kaboodle.kafkaCluster" -}}{{ include "kaboodle.fullname" . }}-kafka{{- end -}}
{{- define "kaboodle.minioTenant" -}}{{ include "kaboodle.fullname" . }}-minio{{- end -}}
{{- define "kaboodle.minioSecret" -}}{{ include "kaboodle.fullname" . }}-minio{{- end -}}
{{- define "kaboodle.elasticsearch" -}}{{ include "kaboodle.fullname" . }}-es{{- end -}}

{{/*
DATABASE_URL for one target (env entries), or nothing when it runs on embedded Postgres. With the
CloudNativePG cluster: the service's own role through the pooler, its password from its basic-auth
Secret as PGPASSWORD (which node-postgres reads when the URL has none), TLS verified against the
cluster's CA.
*/}}
{{- define "kaboodle.databaseEnv" -}}
{{- $root := .root -}}
{{- $db := $root.Values.database -}}
{{- $target := .target -}}
{{- $key := index $db.secretKeys $target | default $db.secretKeys.all -}}
{{- if $db.existingSecret }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $db.existingSecret }}
      key: {{ $key }}
{{- else if or (index $db.urls $target) $db.urls.all }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "kaboodle.secretName" (dict "root" $root "target" $target) }}
      key: {{ ternary $key $db.secretKeys.all (not (empty (index $db.urls $target))) }}
{{- else if and (ne $target "all") (include "kaboodle.engineEnabled" (dict "root" $root "engine" "postgres")) }}
{{- $pg := $root.Values.engines.postgres }}
{{- $host := ternary (printf "%s-pooler" (include "kaboodle.postgresCluster" $root)) (printf "%s-rw" (include "kaboodle.postgresCluster" $root)) $pg.pooler.enabled }}
- name: DATABASE_URL
  value: {{ printf "postgresql://%s@%s:5432/%s?sslmode=verify-full&sslrootcert=/etc/kaboodle/postgres-ca/ca.crt" $target $host $pg.database | quote }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "kaboodle.postgresRoleSecret" (dict "root" $root "target" $target) }}
      key: password
{{- end }}
{{- end -}}

{{- define "kaboodle.postgresRoleSecret" -}}
{{- $role := index .root.Values.engines.postgres.roles .target | default dict -}}
{{- $role.existingSecret | default (printf "%s-pg-%s" (include "kaboodle.fullname" .root) .target) -}}
{{- end -}}

{{/* The services that own a database (search keeps its index in Elasticsearch). */}}
{{- define "kaboodle.databaseServices" -}}
{{- list "auth" "ingestion" "catalogue" | toJson -}}
{{- end -}}

{{/* Which targets talk to which engine (credentials, volumes, egress): JSON lists. */}}
{{- define "kaboodle.engineUsers" -}}
{{- dict
  "kafka" (list "auth" "ingestion" "processing" "catalogue" "search")
  "minio" (list "ingestion" "processing" "catalogue")
  "elasticsearch" (list "search")
  "postgres" (list "auth" "ingestion" "catalogue")
  | toJson -}}
{{- end -}}

{{/* Whether target uses engine (it is rendered by the chart and the target needs it): "true" or "". */}}
{{- define "kaboodle.usesEngine" -}}
{{- $users := index (include "kaboodle.engineUsers" .root | fromJson) .engine -}}
{{- if and (has .target $users) (include "kaboodle.engineEnabled" (dict "root" .root "engine" .engine)) }}true{{ end -}}
{{- end -}}

{{/*
The gRPC edges between targets: callee → callers. NetworkPolicies open exactly these, and each
service's code allows exactly these identities per method (mTLS).
*/}}
{{- define "kaboodle.grpcCallers" -}}
{{- dict
  "processing" (list "search")
  "catalogue" (list "search")
  | toJson -}}
{{- end -}}

{{/* HTTP between targets: auth's JWKS (token verification) for the services that check sessions. */}}
{{- define "kaboodle.httpCallers" -}}
{{- dict "auth" (list "ingestion" "catalogue" "search") | toJson -}}
{{- end -}}

{{/* Kafka topics each service writes and reads, and its consumer-group prefixes (KafkaUser ACLs). */}}
{{- define "kaboodle.kafkaAccess" -}}
{{- $t := dict
  "uploaded" "kaboodle.file.uploaded.v1" "status" "kaboodle.file.status.v1"
  "processed" "kaboodle.file.processed.v1" "deleted" "kaboodle.file.deleted.v1"
  "changed" "kaboodle.catalogue.changed.v1" "user" "kaboodle.user.changed.v1"
  "revoked" "kaboodle.session.revoked.v1" -}}
{{- dict
  "auth" (dict "write" (list $t.user $t.revoked) "read" (list) "groups" (list))
  "ingestion" (dict "write" (list $t.uploaded $t.deleted $t.status) "read" (list $t.status $t.revoked) "groups" (list "ingestion." "session-revocations."))
  "processing" (dict "write" (list $t.processed $t.status) "read" (list $t.uploaded $t.status) "groups" (list "processing"))
  "catalogue" (dict "write" (list $t.changed $t.status $t.uploaded $t.deleted) "read" (list $t.processed $t.uploaded $t.status $t.deleted $t.revoked) "groups" (list "catalogue" "session-revocations."))
  "search" (dict "write" (list) "read" (list $t.changed $t.user $t.revoked) "groups" (list "search" "session-revocations."))
  | toJson -}}
{{- end -}}

{{/* Fail early, with every reason, on values that cannot work. */}}
{{- define "kaboodle.validate" -}}
{{- $problems := list -}}
{{- $mode := .Values.deploymentMode -}}
{{- if not (has $mode (list "single" "distributed")) -}}
{{- $problems = append $problems (printf "deploymentMode: must be single or distributed, got %q" (toString $mode)) -}}
{{- end -}}
{{- range $key := list "PORT" "GRPC_PORT" "HOST" "KABOODLE_DATA_DIR" "DATABASE_URL" "AUTH_URL" "OTEL_SERVICE_NAME" -}}
{{- if hasKey $.Values.config $key -}}
{{- $problems = append $problems (printf "config.%s: set by the chart (see ports, database); remove it" $key) -}}
{{- end -}}
{{- end -}}
{{- range $name, $engine := .Values.engines -}}
{{- if not (has (toString $engine.enabled) (list "auto" "true" "false")) -}}
{{- $problems = append $problems (printf "engines.%s.enabled: must be auto, true or false, got %q" $name (toString $engine.enabled)) -}}
{{- end -}}
{{- end -}}
{{- if eq $mode "distributed" -}}
{{- range $target := list "auth" "ingestion" "processing" "catalogue" "search" "web" -}}
{{- if not (hasKey $.Values.services $target) -}}
{{- $problems = append $problems (printf "services.%s: missing (every target needs an entry)" $target) -}}
{{- end -}}
{{- end -}}
{{- range $target, $svc := .Values.services -}}
{{- if and $svc.database (not (include "kaboodle.databaseEnv" (dict "root" $ "target" $target))) -}}
{{- $problems = append $problems (printf "services.%s: distributed mode needs a shared database: set database.existingSecret, database.urls.%s (or .all), or engines.postgres.enabled" $target $target) -}}
{{- end -}}
{{- end -}}
{{- if and (not .Values.config.KAFKA_BROKERS) (not (include "kaboodle.engineEnabled" (dict "root" . "engine" "kafka"))) -}}
{{- $problems = append $problems "config.KAFKA_BROKERS: distributed mode needs Kafka (the in-process bus cannot cross pods): set it or engines.kafka.enabled" -}}
{{- end -}}
{{- if and (not .Values.config.S3_ENDPOINT) (not (include "kaboodle.engineEnabled" (dict "root" . "engine" "minio"))) -}}
{{- $problems = append $problems "config.S3_ENDPOINT: distributed mode needs shared object storage: set it or engines.minio.enabled" -}}
{{- end -}}
{{- if and (not .Values.config.ELASTICSEARCH_URL) (not (include "kaboodle.engineEnabled" (dict "root" . "engine" "elasticsearch"))) -}}
{{- $problems = append $problems "config.ELASTICSEARCH_URL: distributed mode needs Elasticsearch: the embedded index lives on one pod's disk, so every search replica would answer from its own copy; set it or engines.elasticsearch.enabled" -}}
{{- end -}}
{{- if .Values.secrets.existingSecret -}}
{{- $problems = append $problems "secrets.existingSecret: would hand every credential to every pod (web included); in distributed mode give each target its own: services.<target>.existingSecret" -}}
{{- end -}}
{{- $processing := .Values.services.processing | default dict -}}
{{- if and (dig "autoscaling" "enabled" false $processing) (include "kaboodle.engineEnabled" (dict "root" . "engine" "kafka")) -}}
{{- $needed := mul (int $processing.autoscaling.maxReplicas) (int ($processing.concurrency | default 1)) -}}
{{- if lt (int .Values.engines.kafka.partitions) (int $needed) -}}
{{- $problems = append $problems (printf "engines.kafka.partitions: %d partitions cap the cluster at %d files analysed at once, below services.processing.autoscaling.maxReplicas × concurrency = %d; raise it to at least %d" (int .Values.engines.kafka.partitions) (int .Values.engines.kafka.partitions) $needed $needed) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}


{{- define "kaboodle.esUserSecret" -}}
{{- .Values.engines.elasticsearch.userSecret | default (printf "%s-es-search" (include "kaboodle.fullname" .)) -}}
{{- end -}}

{{/*
The Secret volumes a target's pod mounts read-only: CAs of the engines it talks to (operators'
Secrets) and its own gRPC certificate. JSON list of {name, secret, mountPath, items}.
*/}}
{{- define "kaboodle.caVolumes" -}}
{{- $root := .root -}}
{{- $target := .target -}}
{{- $volumes := list -}}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "kafka" "target" $target) -}}
{{- $volumes = append $volumes (dict "name" "kafka-ca" "secret" (printf "%s-cluster-ca-cert" (include "kaboodle.kafkaCluster" $root)) "mountPath" "/etc/kaboodle/kafka-ca" "items" (list (dict "key" "ca.crt" "path" "ca.crt"))) -}}
{{- end -}}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "elasticsearch" "target" $target) -}}
{{- $volumes = append $volumes (dict "name" "elasticsearch-ca" "secret" (printf "%s-es-http-certs-public" (include "kaboodle.elasticsearch" $root)) "mountPath" "/etc/kaboodle/elasticsearch-ca" "items" (list (dict "key" "ca.crt" "path" "ca.crt"))) -}}
{{- end -}}
{{- if and (include "kaboodle.usesEngine" (dict "root" $root "engine" "postgres" "target" $target)) (not $root.Values.database.existingSecret) (not (include "kaboodle.hasDatabaseUrls" $root)) -}}
{{- $volumes = append $volumes (dict "name" "postgres-ca" "secret" (printf "%s-ca" (include "kaboodle.postgresCluster" $root)) "mountPath" "/etc/kaboodle/postgres-ca" "items" (list (dict "key" "ca.crt" "path" "ca.crt"))) -}}
{{- end -}}
{{- $svc := index $root.Values.services $target | default dict -}}
{{- if and (eq $root.Values.deploymentMode "distributed") $svc.grpc $root.Values.grpcTls.enabled -}}
{{- $volumes = append $volumes (dict "name" "grpc-tls" "secret" (printf "%s-grpc-tls" (include "kaboodle.componentName" .)) "mountPath" "/etc/kaboodle/grpc-tls" "items" (list (dict "key" "tls.crt" "path" "tls.crt") (dict "key" "tls.key" "path" "tls.key") (dict "key" "ca.crt" "path" "ca.crt"))) -}}
{{- end -}}
{{- $volumes | toJson -}}
{{- end -}}

{{- define "kaboodle.pgBackupSecret" -}}
{{- .Values.engines.postgres.backup.existingSecret | default (printf "%s-pg-backup" (include "kaboodle.fullname" .)) -}}
{{- end -}}

{{/* Egress rule to cluster DNS. */}}
{{- define "kaboodle.egressDns" -}}
- ports:
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
  {{- with .Values.networkPolicy.dnsTo }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Egress rules to the chart's engines a target uses (their pods, by the operators' labels). */}}
{{- define "kaboodle.egressEngines" -}}
{{- $root := .root -}}
{{- $target := .target -}}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "postgres" "target" $target) }}
- ports: [{ port: 5432, protocol: TCP }]
  to:
    - podSelector:
        matchLabels: { cnpg.io/cluster: {{ include "kaboodle.postgresCluster" $root }} }
    - podSelector:
        matchLabels: { cnpg.io/poolerName: {{ include "kaboodle.postgresCluster" $root }}-pooler }
{{- end }}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "kafka" "target" $target) }}
- ports: [{ port: 9093, protocol: TCP }]
  to:
    - podSelector:
        matchLabels: { strimzi.io/cluster: {{ include "kaboodle.kafkaCluster" $root }}, strimzi.io/kind: Kafka }
{{- end }}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "minio" "target" $target) }}
- ports: [{ port: 9000, protocol: TCP }]
  to:
    - podSelector:
        matchLabels: { v1.min.io/tenant: {{ include "kaboodle.minioTenant" $root }} }
{{- end }}
{{- if include "kaboodle.usesEngine" (dict "root" $root "engine" "elasticsearch" "target" $target) }}
- ports: [{ port: 9200, protocol: TCP }]
  to:
    - podSelector:
        matchLabels: { elasticsearch.k8s.elastic.co/cluster-name: {{ include "kaboodle.elasticsearch" $root }} }
{{- end }}
{{- end -}}
