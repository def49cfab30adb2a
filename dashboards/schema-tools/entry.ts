// Types that ts-json-schema-generator turns into ../schema/dashboard.schema.json (see generate.js).
// Grafana's dashboard model comes from @grafana/grafana-foundation-sdk (version pinned in
// package.json). The SDK leaves a panel target (cog.Dataquery) opaque, since its shape depends on
// the datasource; Longhaul uses only InfluxDB with raw InfluxQL, so its targets are typed here
// after Grafana's InfluxDB query model (public/app/plugins/datasource/influxdb/types.ts).
import type { AnnotationTarget, DataSourceRef } from "@grafana/grafana-foundation-sdk/dist/dashboard/types.gen";
export type { Dashboard } from "@grafana/grafana-foundation-sdk/dist/dashboard/types.gen";

export interface InfluxQLQuery {
  refId: string;
  datasource?: DataSourceRef;
  /** raw InfluxQL; Grafana expands $timeFilter, $__interval and dashboard variables */
  query: string;
  rawQuery: true;
  resultFormat?: "time_series" | "table" | "logs";
  alias?: string;
  hide?: boolean;
}

/** An annotation's target: the SDK's fields plus the InfluxQL query that finds the events. */
export interface InfluxQLAnnotationTarget extends AnnotationTarget {
  refId?: string;
  query: string;
  rawQuery: true;
  resultFormat?: "table";
}
