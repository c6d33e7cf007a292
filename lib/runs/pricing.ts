// Token prices live in lib/run-model/pricing.ts; the OpenAPI document still imports them here.
export { ModelPricesUpdateSchema, ModelPricesViewSchema } from "@/lib/run-model/pricing";
