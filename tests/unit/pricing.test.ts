import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_MODEL_PRICES,
  envModelPrices,
  estimateCost,
  priceFor,
} from "@/lib/run-model/pricing";

describe("priceFor", () => {
  it("matches by id, with or without the provider prefix, and dated snapshots", () => {
    expect(priceFor("gpt-4o-mini", DEFAULT_MODEL_PRICES)).toEqual({ input: 0.15, output: 0.6 });
    expect(priceFor("openai/gpt-4o-mini", DEFAULT_MODEL_PRICES)).toEqual({
      input: 0.15,
      output: 0.6,
    });
    // The longest known name wins: gpt-4o-mini-…, not gpt-4o.
    expect(priceFor("openai/gpt-4o-mini-2024-07-18", DEFAULT_MODEL_PRICES)?.input).toBe(0.15);
    expect(priceFor("anthropic/claude-sonnet-4-5-20250929", DEFAULT_MODEL_PRICES)).toEqual({
      input: 3,
      output: 15,
    });
    expect(priceFor("offline", DEFAULT_MODEL_PRICES)).toEqual({ input: 0, output: 0 });
    expect(priceFor("openai/my-fine-tune", DEFAULT_MODEL_PRICES)).toBeUndefined();
    // A prefixed key in the table matches the prefixed id.
    expect(priceFor("openai/x", { "openai/x": { input: 1, output: 1 } })).toBeDefined();
  });
});

describe("priceFor's normalized tables", () => {
  it("are remembered only for frozen tables: a new or changed table is read afresh", () => {
    const frozen = Object.freeze({ "OpenAI/A": { input: 1, output: 1 } });
    expect(priceFor("openai/a", frozen)?.input).toBe(1);
    expect(priceFor("openai/a", frozen)?.input).toBe(1);
    expect(
      priceFor("openai/a", Object.freeze({ "openai/a": { input: 2, output: 2 } }))?.input,
    ).toBe(2);
    const open: Record<string, { input: number; output: number }> = { b: { input: 1, output: 1 } };
    expect(priceFor("b", open)?.input).toBe(1);
    open.b = { input: 3, output: 3 };
    expect(priceFor("b", open)?.input).toBe(3);
  });
});

describe("estimateCost", () => {
  it("sums per model; the offline model is free", () => {
    const cost = estimateCost(
      [
        { model: "openai/gpt-4o", input_tokens: 1_000_000, output_tokens: 100_000 },
        { model: "offline", input_tokens: 500, output_tokens: 500 },
      ],
      DEFAULT_MODEL_PRICES,
    );
    expect(cost).toEqual({
      usd: 3.5,
      estimated: true,
      models: ["openai/gpt-4o", "offline"],
      unpriced_models: [],
    });
    expect(
      estimateCost([{ model: "offline", input_tokens: 9, output_tokens: 9 }], DEFAULT_MODEL_PRICES)
        .usd,
    ).toBe(0);
  });

  it("usd is null only when every model used is unpriced", () => {
    const some = estimateCost(
      [
        { model: "openai/gpt-4o-mini", input_tokens: 1_000_000, output_tokens: 0 },
        { model: "openai/mystery", input_tokens: 10, output_tokens: 10 },
      ],
      DEFAULT_MODEL_PRICES,
    );
    expect(some.usd).toBe(0.15);
    expect(some.unpriced_models).toEqual(["openai/mystery"]);
    const none = estimateCost(
      [{ model: "openai/mystery", input_tokens: 10, output_tokens: 10 }],
      DEFAULT_MODEL_PRICES,
    );
    expect(none.usd).toBeNull();
    expect(estimateCost([], DEFAULT_MODEL_PRICES).usd).toBe(0);
  });
});

describe("MODEL_PRICES", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads valid JSON", () => {
    expect(envModelPrices('{"openai/gpt-4o": {"input": 1, "output": 2}}')).toEqual({
      "openai/gpt-4o": { input: 1, output: 2 },
    });
  });

  it("ignores a bad value with a clear warning, never throws", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(envModelPrices("{not json")).toEqual({});
    expect(warn).toHaveBeenLastCalledWith(
      expect.stringMatching(/MODEL_PRICES is ignored: not JSON/),
    );
    expect(envModelPrices('{"gpt-4o": {"input": "cheap", "output": 2}}')).toEqual({});
    expect(warn).toHaveBeenLastCalledWith(
      expect.stringMatching(/MODEL_PRICES is ignored: .*input/),
    );
    expect(envModelPrices('{"gpt-4o": {"input": -1, "output": 2}}')).toEqual({});
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
