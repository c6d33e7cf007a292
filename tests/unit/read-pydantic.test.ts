import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { readCrewPy } from "@/lib/crew/read-crew-py";
import { readPydanticModels } from "@/lib/crew/read-pydantic";

// Pydantic models as CrewAI crews write them (modelled on crewAI-examples), read as text.
const MODULE = `
from typing import List, Optional
from pydantic import BaseModel, Field

class Activity(BaseModel):
    name: str = Field(..., description="Name of the activity")
    rating: float = Field(..., description="Rating")
    tags: List[str] = Field(default_factory=list)
    booked: bool = False

class DayPlan(BaseModel):
    """A day of the trip"""
    date: str = Field(..., description="Date of the day")
    activities: List[Activity]
    restaurants: list[str] = Field(..., description="Restaurants")
    flight: Optional[str] = Field(None, description="Flight information")
    mood: Literal["calm", "busy"] | None = None

class Itinerary(BaseModel):
    name: str = Field(..., description="Name of the itinerary, something funny")
    day_plans: List[DayPlan] = Field(..., description="List of day plans")
    extras: Dict[str, int] = {}

@CrewBase
class SurpriseTravelCrew():
    @task
    def itinerary_compilation_task(self) -> Task:
        return Task(
            config=self.tasks_config['itinerary_compilation_task'],
            agent=self.itinerary_compiler(),
            output_json=Itinerary
        )
`;

describe("readPydanticModels", () => {
  const models = readPydanticModels(MODULE);

  it("reads fields, types, required and descriptions, nesting models", () => {
    expect(models.get("Itinerary")).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "Name of the itinerary, something funny" },
        day_plans: {
          type: "array",
          description: "List of day plans",
          items: {
            type: "object",
            description: "A day of the trip",
            properties: {
              date: { type: "string", description: "Date of the day" },
              activities: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    name: { type: "string", description: "Name of the activity" },
                    rating: { type: "number", description: "Rating" },
                    tags: { type: "array", items: { type: "string" } },
                    booked: { type: "boolean" },
                  },
                  required: ["name", "rating"],
                },
              },
              restaurants: { type: "array", items: { type: "string" }, description: "Restaurants" },
              flight: { type: "string", description: "Flight information" },
              mood: { enum: ["calm", "busy"] },
            },
            required: ["date", "activities", "restaurants"],
          },
        },
        extras: { type: "object" },
      },
      required: ["name", "day_plans"],
    });
  });

  it("gives schemas a validator compiles, and that accept a matching document", () => {
    const validate = new Ajv().compile(models.get("Itinerary") as object);
    expect(
      validate({
        name: "Trip",
        day_plans: [{ date: "Mon", activities: [{ name: "Swim", rating: 4 }], restaurants: [] }],
      }),
    ).toBe(true);
    expect(validate({ name: "Trip" })).toBe(false);
  });

  it("links a task's output_json=Model to its schema", () => {
    const read = readCrewPy(MODULE);
    expect(read.taskModels.get("itinerary_compilation_task")).toBe("Itinerary");
    expect(read.models.has("Itinerary")).toBe(true);
  });

  it("ignores classes that are not models", () => {
    expect(readPydanticModels("class Tool(BaseTool):\n    name: str = 'x'\n").size).toBe(0);
  });
});
