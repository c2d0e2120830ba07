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

{{- define "kaboodle.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "kaboodle.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding chart-managed secrets (secrets.values, database.urls). */}}
{{- define "kaboodle.secretName" -}}
{{- printf "%s-secrets" (include "kaboodle.fullname" .) -}}
{{- end -}}

{{- define "kaboodle.hasDatabaseUrls" -}}
{{- range $k, $v := .Values.database.urls }}{{ if $v }}true{{ end }}{{ end -}}
{{- end -}}

{{- define "kaboodle.hasChartSecrets" -}}
{{- if not .Values.secrets.existingSecret -}}
{{- range $k, $v := .Values.secrets.values }}{{ if $v }}true{{ end }}{{ end -}}
{{- end -}}
{{- if and (not .Values.database.existingSecret) (include "kaboodle.hasDatabaseUrls" .) }}true{{ end -}}
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

{{/* DATABASE_URL for one target (an env entry), or nothing when it runs on embedded Postgres. */}}
{{- define "kaboodle.databaseEnv" -}}
{{- $root := .root -}}
{{- $db := $root.Values.database -}}
{{- $target := .target -}}
{{- $key := index $db.secretKeys $target -}}
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
      name: {{ include "kaboodle.secretName" $root }}
      key: {{ ternary $key $db.secretKeys.all (not (empty (index $db.urls $target))) }}
{{- else if include "kaboodle.engineEnabled" (dict "root" $root "engine" "postgres") }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "kaboodle.postgresCluster" $root }}-app
      key: uri
{{- end }}
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
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}
