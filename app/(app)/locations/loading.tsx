// Shown while the locations page is on its way (a navigation): its title, then a skeleton.
import { PageLoading } from "@/components/states/page-states";

export default function Loading() {
  return <PageLoading title="Locations" />;
}
