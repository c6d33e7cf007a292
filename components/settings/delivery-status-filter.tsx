import { Label, Select } from "@/components/ui/input";

/** Which deliveries the section lists, by status. */
export function DeliveryStatusFilter({
  status,
  onChange,
}: {
  status: string;
  onChange: (status: string) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor="delivery-status">Show</Label>
      <Select
        id="delivery-status"
        value={status}
        className="w-44"
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">All deliveries</option>
        <option value="pending">Retrying</option>
        <option value="failed">Failed</option>
        <option value="succeeded">Delivered</option>
      </Select>
    </div>
  );
}
