import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";

/** Newer and Older, with the page number; Older waits while a page is loading. */
export function DeliveryPager({
  page,
  next,
  loading,
  onNewer,
  onOlder,
}: {
  page: number;
  next: number | null;
  loading: boolean;
  onNewer: () => void;
  onOlder: () => void;
}) {
  return (
    <nav aria-label="Delivery pages" className="flex items-center justify-end gap-2">
      <span className="text-muted-foreground text-sm">Page {page}</span>
      <Button size="sm" disabled={page === 1} onClick={onNewer}>
        <ChevronLeft aria-hidden /> Newer
      </Button>
      <Button size="sm" disabled={next === null || loading} onClick={onOlder}>
        Older <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}
