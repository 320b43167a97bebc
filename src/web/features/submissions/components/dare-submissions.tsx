/** What a dare's page takes from this feature, in one chunk loaded with the page. */
export { ApprovedSubmissions } from './approved-submissions';
export { SubmitVideoDialog } from './submit-video-dialog';
