// PATCH /api/views/{id} - renames a saved view {name}; DELETE - deletes it (lib/server/view-routes.ts).
import { sameSiteOnly } from "@/lib/server/csrf";
import { deleteView, renameView } from "@/lib/server/view-routes";

export const dynamic = "force-dynamic";
export const PATCH = sameSiteOnly(renameView);
export const DELETE = sameSiteOnly(deleteView);
