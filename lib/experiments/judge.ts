import crypto from "node:crypto";
import { generateText } from "ai";
import { env } from "@/lib/config/env";
import type { JudgeSpec } from "@/lib/contract/experiments";
import { errorMessage } from "@/lib/errors";
import { chooseModel } from "@/lib/llm/choose-model";
import { resolveModel } from "@/lib/llm/resolve-model";

// Judges are models asked for a verdict in JSON, with their reasoning kept. A rubric judge scores
// one output 1–10; with the "crewai" preset it scores as CrewAI's `crewai test` does (completion,
// quality and overall performance against the task's description and expected output). A
// pairwise judge picks the better of two outputs, shown in a random order so position bias
// averages out; which order it saw is kept with its verdict.

export type Verdict = { score: number | null; reason: string; tokens: number };
export type TaskBrief = { description: string; expected_output: string; agent?: string };

const SYSTEM =
  'You are an impartial evaluator. Answer with one JSON object and nothing else: {"score": <number>, "reasoning": "<why, in two or three sentences>"}.';

function rubricPrompt(spec: JudgeSpec, task: TaskBrief, output: string, expected?: string) {
  const criteria =
    spec.preset === "crewai" || !spec.rubric
      ? "Score from 1 to 10 how well the output completes the task: completion, quality and overall performance against the task's description and expected output."
      : `Score from 1 to 10 against this rubric:\n${spec.rubric}`;
  return [
    criteria,
    `Task description:\n${task.description}`,
    `Expected output (what the task asks for):\n${task.expected_output}`,
    ...(task.agent ? [`Agent: ${task.agent}`] : []),
    ...(expected ? [`A reviewer approved this answer for the same input:\n${expected}`] : []),
    `Output to evaluate:\n${output}`,
  ].join("\n\n");
}

/** The first JSON object in a model's answer (models wrap it in prose or fences). */
function readJson(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

async function ask(model: string, prompt: string, system = SYSTEM) {
  const e = env();
  const choice = chooseModel({ llm: model }, { DEFAULT_LLM: e.DEFAULT_LLM });
  const res = await generateText({
    model: resolveModel(choice, { offlineDelayMs: 0 }),
    system,
    prompt,
    maxRetries: e.MODEL_MAX_RETRIES,
  });
  return { text: res.text, tokens: res.usage.totalTokens ?? 0 };
}

/** A rubric judge's score of one output; a failed or unreadable answer is null with why. */
export async function judgeOutput(
  spec: JudgeSpec,
  task: TaskBrief,
  output: string,
  expected?: string,
): Promise<Verdict> {
  try {
    const { text, tokens } = await ask(spec.model, rubricPrompt(spec, task, output, expected));
    const json = readJson(text);
    const score = Number(json?.score);
    const reason = typeof json?.reasoning === "string" ? json.reasoning : text.slice(0, 2000);
    if (!json || !Number.isFinite(score) || score < 1 || score > 10)
      return {
        score: null,
        reason: `The judge gave no score from 1 to 10: ${text.slice(0, 500)}`,
        tokens,
      };
    return { score, reason, tokens };
  } catch (err) {
    return { score: null, reason: `The judge failed: ${errorMessage(err)}`, tokens: 0 };
  }
}

export type PairVerdict = {
  winner: "a" | "b" | "tie" | null;
  shown_first: "a" | "b";
  reason: string;
  tokens: number;
};

/** Which of two outputs is better; `first` fixes the order shown (random when absent). */
export async function judgePair(
  spec: { model: string; criteria?: string },
  task: TaskBrief,
  a: string,
  b: string,
  first: "a" | "b" = crypto.randomInt(2) === 0 ? "a" : "b",
): Promise<PairVerdict> {
  const [one, two] = first === "a" ? [a, b] : [b, a];
  const prompt = [
    `Two answers to the same task. Which is better${spec.criteria ? `, judged by: ${spec.criteria}` : ""}?`,
    `Task description:\n${task.description}`,
    `Expected output:\n${task.expected_output}`,
    `Answer 1:\n${one}`,
    `Answer 2:\n${two}`,
  ].join("\n\n");
  const system =
    'You are an impartial evaluator. Answer with one JSON object and nothing else: {"winner": "1" | "2" | "tie", "reasoning": "<why>"}.';
  try {
    const { text, tokens } = await ask(spec.model, prompt, system);
    const json = readJson(text);
    const said = String(json?.winner ?? "")
      .trim()
      .toLowerCase();
    const reason = typeof json?.reasoning === "string" ? json.reasoning : text.slice(0, 2000);
    const pick =
      said === "1"
        ? first
        : said === "2"
          ? first === "a"
            ? "b"
            : "a"
          : said === "tie"
            ? "tie"
            : null;
    return {
      winner: pick,
      shown_first: first,
      reason: pick ? reason : `No winner named: ${text.slice(0, 500)}`,
      tokens,
    };
  } catch (err) {
    return {
      winner: null,
      shown_first: first,
      reason: `The judge failed: ${errorMessage(err)}`,
      tokens: 0,
    };
  }
}

/** Same judge, same key: what a calibration is found by. */
export function judgeKey(spec: JudgeSpec): string {
  const { model, preset, rubric, pass_at, task } = spec;
  return crypto
    .createHash("sha256")
    .update(
      JSON.stringify({
        model,
        preset: preset ?? null,
        rubric: rubric ?? null,
        pass_at,
        task: task ?? null,
      }),
    )
    .digest("hex")
    .slice(0, 32);
}
