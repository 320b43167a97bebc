import { type ReactNode, Suspense } from 'react';
import { EmptyState } from '#web/components/common/empty-state';
import { Spinner } from '#web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';

/**
 * The 'Dares' and 'Featured' tabs. Their contents come from the dares and submissions features,
 * composed in by the router; the Featured one may be a lazy chunk, so it gets a Suspense boundary.
 */
export function HomeTabs({ dares, featured }: { dares?: ReactNode; featured?: ReactNode }) {
  return (
    <Tabs defaultValue="dares" className="min-w-0">
      <TabsList>
        <TabsTrigger value="dares">Dares</TabsTrigger>
        <TabsTrigger value="featured">Featured</TabsTrigger>
      </TabsList>
      <TabsContent value="dares" className="space-y-4">
        {dares ?? <EmptyState title="No dares found" />}
      </TabsContent>
      <TabsContent value="featured">
        <Suspense fallback={<Spinner label="Loading featured videos" />}>
          {featured ?? <EmptyState title="No featured videos yet" />}
        </Suspense>
      </TabsContent>
    </Tabs>
  );
}
