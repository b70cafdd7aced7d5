import { PlaceholderPage } from '../components/PlaceholderPage.js';

export function PostsPage() {
  return (
    <PlaceholderPage
      title="Posts"
      description="Social posts scheduled through the posting provider: what is queued, what went out, what failed."
      features={[
        {
          name: 'Schedule',
          detail: 'List of scheduled and published posts by platform and date, with their status.',
        },
        {
          name: 'Compose',
          detail:
            'Post form with a live character count per platform (microblog counts URLs as 23) and media checks.',
        },
        {
          name: 'Warnings',
          detail: 'Posts under 10 minutes ahead or within 2 h of another on the same platform.',
        },
        { name: 'Cancel', detail: 'Cancel a scheduled post at the provider.' },
        { name: 'Quota', detail: "Posts left in today's plan quota before the provider refuses." },
      ]}
      routes={[
        'POST /postsvc/schedule',
        'POST /postsvc/delete',
        'GET /postsvc/history',
        'POST /postsvc/sync',
      ]}
    />
  );
}
